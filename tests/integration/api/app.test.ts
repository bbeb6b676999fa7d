import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { parseSse } from '#shared/cli/http-backend.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { QaEvent } from '#shared/qa/events.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

const ZH = `# 年度技术规划

## 第3章 基础设施

### 3.2 云平台建设

计划将核心业务迁移至混合云架构，预计投入500万预算用于容器化改造，提升弹性和成本效益。

## 第4章 人员

团队由张三负责，下设运维组和开发组。
`;

const EN = `---
title: Data Platform Plan
owner: Alice
---

# Goals

The main goal of the project is to build a unified data platform for every business unit.

## Budget

The budget for 2024 is 2 million dollars, mostly spent on storage and training.
`;

const CUPS_CSV = [
  'Team,Stanley Cups,Notes,Last won',
  'Montreal Canadiens,24,,1993',
  'Toronto Maple Leafs,13,,1967',
  'Detroit Red Wings,11,,2008',
  'Boston Bruins,6,,2011',
  'Chicago Blackhawks,6,,2015',
].join('\n');

function form(files: Record<string, string | Uint8Array>): FormData {
  const body = new FormData();
  for (const [name, content] of Object.entries(files))
    body.append('files', new Blob([content as Uint8Array<ArrayBuffer>]), name);
  return body;
}

async function askEvents(app: ReturnType<typeof createApp>, question: string): Promise<QaEvent[]> {
  const res = await app.request('/api/qa/ask', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: QaEvent[] = [];
  for await (const event of parseSse(res.body as ReadableStream<Uint8Array>)) events.push(event);
  return events;
}

describe('HTTP API', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;
  let ids: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-api-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    app = createApp(rt);
    const res = await app.request('/api/documents/upload', {
      method: 'POST',
      body: form({
        '规划.md': ZH,
        'plan.md': EN,
        'binary.md': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
        'empty.md': '',
        'stanley-cups.csv': CUPS_CSV,
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { documents: { id: string; key: string }[] };
    ids = Object.fromEntries(body.documents.map((d) => [d.key, d.id]));
    await rt.ingest.idle();
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ingests good files and fails bad ones on their own documents', async () => {
    const res = await app.request('/api/documents?limit=10');
    const { items, total } = (await res.json()) as {
      items: { key: string; status: string; statusDetail: string; failureCode: string | null }[];
      total: number;
    };
    expect(total).toBe(5);
    const byKey = Object.fromEntries(items.map((d) => [d.key, d]));
    expect(byKey['uploads/规划.md']?.status).toBe('ready');
    expect(byKey['uploads/plan.md']?.status).toBe('ready');
    expect(byKey['uploads/binary.md']?.status).toBe('failed');
    expect(byKey['uploads/binary.md']?.statusDetail).toMatch(/binary/i);
    expect(byKey['uploads/empty.md']?.status).toBe('failed');
    expect(byKey['uploads/empty.md']?.statusDetail).toMatch(/empty/i);
    // The failure's kind beside its English reason, on the document and on its version.
    expect(byKey['uploads/binary.md']?.failureCode).toBe('unsupported_document');
    const detail = (await (await app.request(`/api/documents/${ids['uploads/binary.md']}`)).json()) as {
      versions: { errorCode: string | null }[];
    };
    expect(detail.versions[0]?.errorCode).toBe('unsupported_document');
  });

  it('returns a document with its versions and its structure', async () => {
    const id = ids['uploads/规划.md'];
    const detail = (await (await app.request(`/api/documents/${id}`)).json()) as {
      versions: { version: number; status: string }[];
    };
    expect(detail.versions).toEqual([expect.objectContaining({ version: 1, status: 'ready' })]);
    const structure = await (await app.request(`/api/documents/${id}/structure`)).text();
    expect(structure).toContain('3.2 云平台建设');
  });

  it('searches each kind and reports the section path', async () => {
    for (const kind of ['keyword', 'fulltext', 'semantic', 'hybrid']) {
      const res = await app.request(`/api/search?q=${encodeURIComponent('预算')}&kind=${kind}&limit=5`);
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as {
        results: { path: string; documentName: string; content: string }[];
      };
      expect(results.length, kind).toBeGreaterThan(0);
      expect(results[0]?.content).toContain('预算');
      expect(results[0]?.path).toContain('第3章 基础设施 > 3.2 云平台建设');
    }
  });

  it('rejects a bad search with a 400 naming the field', async () => {
    const res = await app.request('/api/search?q=x&kind=magic');
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: { code: string; message: string; reason: string; params: Record<string, unknown> };
    };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.message).toContain('kind');
    // The reason and its params, for a client to say in its own language.
    expect(body.error).toMatchObject({ reason: 'not_allowed', params: { field: 'query.kind' } });
  });

  it('streams a cited answer to a Chinese question', async () => {
    const events = await askEvents(app, '云平台建设的预算是多少？');
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('meta');
    expect(types).toContain('delta');
    expect(types.at(-1)).toBe('done');
    const done = events.at(-1) as Extract<QaEvent, { type: 'done' }>;
    expect(done.data.response.answer).toContain('500万预算');
    expect(done.data.response.sources[0]?.document_name).toBe('规划.md');
    expect(done.data.response.sources[0]?.section).toContain('3.2 云平台建设');
  });

  it('streams a cited answer to an English question', async () => {
    const events = await askEvents(app, 'What is the main goal of the project?');
    const done = events.at(-1) as Extract<QaEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.data.response.answer).toContain('unified data platform');
    expect(done.data.response.sources.some((s) => s.section.includes('Goals'))).toBe(true);
  });

  it('sends the rows of a table answer as a table in the done event, each row with its citation (issue 31)', async () => {
    const done = (await askEvents(app, 'Which team has won the most Stanley Cups?')).at(-1);
    if (done?.type !== 'done') throw new Error('no done event');
    const { answer, table, sources } = done.data.response;
    // The empty Notes column is left out; the row is the sheet's second, under the header row.
    expect(table).toEqual({
      title: 'stanley-cups',
      columns: ['Team', 'Stanley Cups', 'Last won'],
      rows: [{ citation: 1, number: 2, cells: ['Montreal Canadiens', '24', '1993'] }],
      text_at: expect.any(Number),
    });
    expect(answer.slice(table?.text_at)).toBe(
      'Rows used (stanley-cups):\n- Team: Montreal Canadiens · Stanley Cups: 24 · Last won: 1993 [1]',
    );
    expect(sources[0]?.snippet).toContain('Montreal Canadiens');
    const openapi = (await (await app.request('/api/openapi.json')).json()) as {
      components: { schemas: { QaTable: { required: string[] } } };
    };
    expect(openapi.components.schemas.QaTable.required).toEqual(['title', 'columns', 'rows', 'text_at']);
  });

  it('removes a deleted document from search at once', async () => {
    const id = ids['uploads/plan.md'];
    expect((await app.request(`/api/documents/${id}`, { method: 'DELETE' })).status).toBe(200);
    const res = await app.request('/api/search?q=unified%20data%20platform&kind=fulltext');
    const { results } = (await res.json()) as { results: unknown[] };
    expect(results).toEqual([]);
    expect((await app.request(`/api/documents/${id}`)).status).toBe(404);
  });

  it('answers unknown routes and ids with JSON errors', async () => {
    expect((await app.request('/api/nothing')).status).toBe(404);
    const res = await app.request('/api/documents/not-a-uuid');
    expect(res.status).toBe(400);
  });
});
