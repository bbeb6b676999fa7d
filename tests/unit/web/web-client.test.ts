import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWebClient } from '#shared/api/web-client.ts';

describe('serveWebClient', () => {
  let dir: string;
  let app: Hono;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-web-'));
    mkdirSync(join(dir, 'dist/assets'), { recursive: true });
    mkdirSync(join(dir, 'plain'), { recursive: true });
    writeFileSync(join(dir, 'dist/index.html'), '<div id="app"></div>');
    writeFileSync(join(dir, 'dist/assets/index-abc.js'), 'console.log(1)');
    writeFileSync(join(dir, 'plain/index.html'), '<h1>plain</h1>');
    writeFileSync(join(dir, 'secret.txt'), 'outside dist');
    app = new Hono();
    app.get('/api/health', (c) => c.json({ ok: true }));
    serveWebClient(app, dir);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves hashed assets with a long cache and their type', async () => {
    const res = await app.request('/assets/index-abc.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/javascript');
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it("answers the client's index.html for any page path so that its router owns the URL", async () => {
    const res = await app.request('/documents/2b1c6c1e-0d43-4e07-9a44-4a8f4b3d3a5e?section=x');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<div id="app"></div>');
  });

  it('leaves /api paths to the API (404 for unknown ones) and keeps API routes working', async () => {
    expect((await app.request('/api/nope')).status).toBe(404);
    expect(await (await app.request('/api/health')).json()).toEqual({ ok: true });
  });

  it('never serves a file outside dist and answers 404 for a missing or malformed file path', async () => {
    expect((await app.request('/..%2fsecret.txt')).status).toBe(404);
    expect((await app.request('/assets/missing.js')).status).toBe(404);
    expect((await app.request('/%E0%A4%A.js')).status).toBe(404);
  });

  it('falls back to the plain page at / when the client is not built', async () => {
    rmSync(join(dir, 'dist'), { recursive: true });
    expect(await (await app.request('/')).text()).toBe('<h1>plain</h1>');
    expect((await app.request('/documents')).status).toBe(404);
  });
});
