import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';
import { createBlobStore } from '#shared/storage/create.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { S3BlobStore } from '#shared/storage/s3.ts';

describe('createBlobStore', () => {
  it('uses <dataDir>/bucket by default', async () => {
    const store = await createBlobStore(parseConfig({ dataDir: '/tmp/dq' }));
    expect(store).toBeInstanceOf(LocalBlobStore);
    expect((store as LocalBlobStore).root).toBe(resolve('/tmp/dq', 'bucket'));
  });

  it('uses storage.dir when set', async () => {
    const store = await createBlobStore(parseConfig({ storage: { dir: join('/tmp', 'b') } }));
    expect((store as LocalBlobStore).root).toBe(resolve('/tmp/b'));
  });

  it('creates an S3 store for the named bucket when storage.kind is s3', async () => {
    const store = await createBlobStore(
      parseConfig({
        storage: { kind: 's3', bucket: 'docs', endpoint: 'http://127.0.0.1:9', forcePathStyle: 'true' },
      }),
    );
    expect(store).toBeInstanceOf(S3BlobStore);
    expect((store as S3BlobStore).bucket).toBe('docs');
  });

  it('refuses half a set of static credentials', async () => {
    const config = parseConfig({ storage: { kind: 's3', bucket: 'docs', accessKeyId: 'AKIA' } });
    await expect(createBlobStore(config)).rejects.toThrow(ConfigError);
  });
});
