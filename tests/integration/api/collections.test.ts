import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessScope, readableCollections } from '#shared/access/scope.ts';
import { createApp } from '#shared/api/app.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { DocumentSummary } from '#shared/documents/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import type { SearchHit } from '#shared/search/types.ts';

const encode = (text: string) => new TextEncoder().encode(text);

describe('collections over HTTP: upload into, list, search and ask by collection', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-collections-'));
    const config = loadConfig({
      env: {},
      overrides: { dataDir: dir, collections: { prefixes: { 'hr/': 'hr' } } },
    });
    rt = await openRuntime(config);
    app = createApp(rt);
    await rt.ingest.ingest([
      {
        key: 'hr/pay.md',
        filename: 'pay.md',
        bytes: encode('# Pay\n\nThe heron salary budget is confidential.\n'),
      },
      {
        key: 'uploads/plan.md',
        filename: 'plan.md',
        bytes: encode('# Plan\n\nThe heron migration budget is public.\n'),
      },
    ]);
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const json = async <T>(path: string, init?: RequestInit) => {
    const res = await app.request(path, init);
    return { status: res.status, body: (await res.json()) as T };
  };

  it('names a document’s collection from its key', async () => {
    const { body } = await json<{ items: DocumentSummary[] }>('/api/documents');
    expect(Object.fromEntries(body.items.map((d) => [d.key, d.collection]))).toEqual({
      'hr/pay.md': 'hr',
      'uploads/plan.md': 'default',
    });
  });

  it('lists, counts and searches one collection with ?collection=', async () => {
    const list = await json<{ items: DocumentSummary[]; total: number }>('/api/documents?collection=hr');
    expect(list.body.items.map((d) => d.key)).toEqual(['hr/pay.md']);
    expect(list.body.total).toBe(1);
    for (const kind of ['keyword', 'fulltext', 'semantic', 'hybrid']) {
      const found = await json<{ results: SearchHit[] }>(
        `/api/search?q=heron&kind=${kind}&collection=default`,
      );
      expect(
        found.body.results.map((h) => h.documentKey),
        kind,
      ).toEqual(['uploads/plan.md']);
    }
    const none = await json<{ items: DocumentSummary[]; total: number }>('/api/documents?collection=legal');
    expect(none.body).toMatchObject({ items: [], total: 0 });
  });

  it('answers from the chosen collection only', async () => {
    const res = await app.request('/api/qa/ask?collection=hr', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'What about the heron budget?', mode: 'standard' }),
    });
    const text = await res.text();
    expect(text).toContain('pay.md');
    expect(text).not.toContain('plan.md');
  });

  it('uploads into a chosen collection, and refuses a name that is not one', async () => {
    const form = new FormData();
    form.append('files', new Blob(['# Notes\n\nEngineering notes.\n']), 'notes.md');
    const up = await json<{ documents: { key: string }[] }>('/api/documents/upload?collection=eng', {
      method: 'POST',
      body: form,
    });
    expect(up.body.documents[0]?.key).toBe('collections/eng/notes.md');
    const list = await json<{ items: DocumentSummary[] }>('/api/documents?collection=eng');
    expect(list.body.items.map((d) => [d.key, d.collection])).toEqual([['collections/eng/notes.md', 'eng']]);
    const bad = await json<{ error: { code: string } }>('/api/documents?collection=Not%20One');
    expect(bad.status).toBe(400);
  });

  it('tells the page which collections there are, with their documents', async () => {
    const { body } = await json<{ collections: { name: string; documents: number }[] }>('/api/status');
    expect(body.collections).toEqual(
      expect.arrayContaining([
        { name: 'default', documents: 1 },
        { name: 'hr', documents: 1 },
      ]),
    );
  });

  /** The app as a signed-in user with these rights sees it: what a sign-in middleware will set. */
  function appFor(read: AccessScope, write: AccessScope): Hono {
    const outer = new Hono();
    outer.use('*', async (c, next) => {
      c.set('access' as never, read as never);
      c.set('writeAccess' as never, write as never);
      await next();
    });
    outer.route('/', app);
    return outer;
  }

  it('shows a reader of hr nothing of other collections, and answers an id there like an unknown one', async () => {
    const reader = appFor(readableCollections(['hr']), readableCollections([]));
    const all = (await (await app.request('/api/documents')).json()) as { items: DocumentSummary[] };
    const plan = all.items.find((d) => d.key === 'uploads/plan.md');
    const listed = (await (await reader.request('/api/documents')).json()) as { items: DocumentSummary[] };
    expect(listed.items.map((d) => d.key)).toEqual(['hr/pay.md']);
    const found = (await (await reader.request('/api/search?q=heron&kind=hybrid')).json()) as {
      results: SearchHit[];
    };
    expect(found.results.map((h) => h.documentKey)).toEqual(['hr/pay.md']);
    for (const path of [
      `/api/documents/${plan?.id}`,
      `/api/documents/${plan?.id}/structure`,
      `/api/documents/${plan?.id}/diff`,
    ]) {
      expect((await reader.request(path)).status, path).toBe(404);
    }
  });

  it('refuses a delete or a reindex without write on the collection: 403 if readable, 404 if not', async () => {
    const reader = appFor(readableCollections(['hr']), readableCollections([]));
    const all = (await (await app.request('/api/documents')).json()) as { items: DocumentSummary[] };
    const id = (key: string) => all.items.find((d) => d.key === key)?.id;
    expect((await reader.request(`/api/documents/${id('hr/pay.md')}`, { method: 'DELETE' })).status).toBe(
      403,
    );
    expect(
      (await reader.request(`/api/documents/${id('hr/pay.md')}/reindex`, { method: 'POST' })).status,
    ).toBe(403);
    expect(
      (await reader.request(`/api/documents/${id('uploads/plan.md')}`, { method: 'DELETE' })).status,
    ).toBe(404);
    const form = new FormData();
    form.append('files', new Blob(['# X\n\nText.\n']), 'x.md');
    const up = await reader.request('/api/documents/upload?collection=hr', { method: 'POST', body: form });
    expect(up.status).toBe(400);
    expect(await up.text()).toContain('may not add documents to the collection hr');
    const presign = await reader.request('/api/documents/upload-url', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'x.md', size: 10, collection: 'hr' }),
    });
    expect(presign.status).toBe(403);
    const still = (await (await app.request('/api/documents?collection=hr')).json()) as { total: number };
    expect(still.total).toBe(1);
  });
});
