import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presignUpload } from '#shared/api/routes/presign.ts';
import { parseConfig } from '#shared/config/index.ts';
import { S3BlobStore } from '#shared/storage/s3.ts';
import { type S3Server, startS3rver } from '../storage/s3rver.ts';

describe('presigned uploads', () => {
  let server: S3Server;
  let store: S3BlobStore;
  const config = parseConfig({ limits: { maxFileBytes: 1000 } });

  beforeAll(async () => {
    server = await startS3rver(['uploads']);
    store = new S3BlobStore({
      bucket: 'uploads',
      region: 'us-east-1',
      endpoint: server.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
  });
  afterAll(async () => {
    store?.client.destroy();
    await server?.close();
  });

  it('signs a PUT for the S3 bucket that uploads the declared bytes to the given key', async () => {
    const body = new TextEncoder().encode('# Direct\n\nUploaded without the API.\n');
    const signed = await presignUpload(
      { store, config },
      { key: 'uploads/direct.md', size: body.length, contentType: 'text/markdown' },
    );
    if (!signed.supported) throw new Error('expected a presigned URL');
    expect(new URL(signed.url).searchParams.get('X-Amz-SignedHeaders')).toBe(
      'content-length;content-type;host',
    );
    const res = await fetch(signed.url, { method: signed.method, headers: signed.headers, body });
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(await store.get('uploads/direct.md'))).toContain(
      'Uploaded without the API',
    );
  });

  it('signs no checksum of an empty body into the URL (S3 would refuse the real bytes)', async () => {
    const signed = await presignUpload({ store, config }, { key: 'uploads/sum.md', size: 10 });
    if (!signed.supported) throw new Error('expected a presigned URL');
    const names = [...new URL(signed.url).searchParams.keys()].map((name) => name.toLowerCase());
    expect(names.filter((name) => name.includes('checksum'))).toEqual([]);
  });

  it('signs for lifecycle.presignExpirySeconds', async () => {
    const shortLived = parseConfig({ lifecycle: { presignExpirySeconds: 120 } });
    const before = Date.now();
    const signed = await presignUpload({ store, config: shortLived }, { key: 'uploads/a.md', size: 10 });
    if (!signed.supported) throw new Error('expected a presigned URL');
    expect(new URL(signed.url).searchParams.get('X-Amz-Expires')).toBe('120');
    const expiresIn = Date.parse(signed.expiresAt) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(119_000);
    expect(expiresIn).toBeLessThan(125_000);
  });

  it('refuses to sign an upload above the file size limit', async () => {
    await expect(presignUpload({ store, config }, { key: 'uploads/big.pdf', size: 5000 })).rejects.toThrow(
      /body\.size: 5000 bytes is above the 1000 limit/,
    );
  });
});
