import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
