import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { loadConfig } from '#shared/config/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { textPng } from '../../helpers/text-png.ts';

const PNG = textPng('PLAN');
const MARKDOWN = `# 架构\n\n产品架构图如下。\n\n![架构图](data:image/png;base64,${Buffer.from(PNG).toString('base64')})\n`;

describe('GET /api/v1/documents/{id}/images/{filename}', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;
  let id: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-images-'));
    rt = await openRuntime(
      loadConfig({ env: {}, overrides: { dataDir: dir, providers: { ocr: { kind: 'none' } } } }),
    );
    app = createApp(rt);
    const body = new FormData();
    body.append('files', new Blob([MARKDOWN]), '架构.md');
    const res = await app.request('/api/documents/upload', { method: 'POST', body });
    const uploaded = (await res.json()) as { documents: { id: string }[] };
    id = uploaded.documents[0]?.id ?? '';
    await rt.ingest.idle();
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the image with its type, a validator and caching headers', async () => {
    const res = await app.request(`/api/v1/documents/${id}/images/img_001.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, max-age=300');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    const again = await app.request(`/api/v1/documents/${id}/images/img_001.png`, {
      headers: { 'if-none-match': res.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('serves a pinned version as immutable', async () => {
    const res = await app.request(`/api/v1/documents/${id}/images/img_001.png?version=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it.each([
    ['a document id that is not a UUID', '/api/v1/documents/not-a-uuid/images/img_001.png'],
    ['a name that climbs out', () => `/api/v1/documents/${id}/images/..%2Fcontent.md`],
    ['the Markdown rendition', () => `/api/v1/documents/${id}/images/content.md`],
    ['a version that is not a number', () => `/api/v1/documents/${id}/images/img_001.png?version=x`],
  ])('answers 400 for %s', async (_what, path) => {
    const res = await app.request(typeof path === 'string' ? path : path());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'validation_failed' } });
  });

  it.each([
    ['an image the document does not have', () => `/api/v1/documents/${id}/images/img_002.png`],
    ['another document', () => '/api/v1/documents/00000000-0000-4000-8000-000000000000/images/img_001.png'],
    ['a version that does not exist', () => `/api/v1/documents/${id}/images/img_001.png?version=7`],
  ])('answers 404 for %s', async (_what, path) => {
    const res = await app.request(path());
    expect(res.status).toBe(404);
  });
});
