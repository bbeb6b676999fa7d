import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { parseSse } from '#shared/cli/http-backend.ts';
import { loadConfig } from '#shared/config/index.ts';
import { schema } from '#shared/db/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

const V1 = '# Budget\n\nThe travel budget is 300 euros per person.\n';
const V2 = '# Budget\n\nThe travel budget is 450 euros per person.\n';

function form(name: string, content: string): FormData {
  const body = new FormData();
  body.append('files', new Blob([content]), name);
  return body;
}

describe('documents and topics API', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;

  const get = async <T>(path: string) => {
    const res = await app.request(path);
    return { status: res.status, body: (await res.json()) as T };
  };
  const upload = async (name: string, content: string) => {
    const res = await app.request('/api/documents/upload', { method: 'POST', body: form(name, content) });
    const body = (await res.json()) as { documents: { id: string }[] };
    await rt.ingest.idle();
    return body.documents[0]?.id ?? '';
  };
  const answer = async (question: string, version?: number) => {
    const res = await app.request('/api/qa/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, mode: 'standard', ...(version ? { version } : {}) }),
    });
    let text = '';
    for await (const event of parseSse(res.body as ReadableStream<Uint8Array>)) {
      if (event.type === 'done') text = event.data.response.answer;
    }
    return text;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-api-docs-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    app = createApp(rt);
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers from the new version, from version 1 when pinned, and from nothing once deleted', async () => {
    const id = await upload('budget.md', V1);
    expect(await upload('budget.md', V2)).toBe(id);
    expect(await answer('What is the travel budget per person?')).toContain('450');
    const pinned = await answer('What is the travel budget per person?', 1);
    expect(pinned).toContain('300');
    expect(pinned).not.toContain('450');

    const listed = await get<{ items: { name: string; documentCount: number }[] }>('/api/topics');
    expect(listed.body.items.length).toBeGreaterThan(0);
    expect(listed.body.items.every((t) => t.documentCount === 1)).toBe(true);

    const versions = await get<{ versions: { version: number; status: string; fileHash: string }[] }>(
      `/api/documents/${id}/versions`,
    );
    expect(versions.body.versions.map((v) => [v.version, v.status])).toEqual([
      [2, 'ready'],
      [1, 'ready'],
    ]);
    expect(versions.body.versions[0]?.fileHash).toMatch(/^[0-9a-f]{64}$/);

    const deleted = await app.request(`/api/documents/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await answer('What is the travel budget per person?')).not.toMatch(/300|450/);
    expect((await get<{ items: unknown[] }>('/api/topics')).body.items).toEqual([]);
    expect((await get(`/api/documents/${id}`)).status).toBe(404);
    const gone = await get<{ items: { id: string; status: string }[] }>('/api/documents?status=deleted');
    expect(gone.body.items).toEqual([expect.objectContaining({ id, status: 'deleted' })]);
  });

  it('filters and pages the document list by name, type, status and topic', async () => {
    const a = await upload('alpha.md', '# Alpha\n\nFirst letter.\n');
    await upload('beta.txt', 'Second letter.\n');
    const [topic] = await rt.db.insert(schema.topics).values({ name: 'letters (by hand)' }).returning();
    await rt.db.insert(schema.documentTopics).values({ documentId: a, topicId: topic?.id ?? '' });

    const byName = await get<{ items: { key: string }[]; total: number }>('/api/documents?name=ALPH');
    expect(byName.body.items.map((d) => d.key)).toEqual(['uploads/alpha.md']);
    const byType = await get<{ items: { key: string; id: string }[] }>(
      '/api/documents?type=txt&status=ready',
    );
    expect(byType.body.items.map((d) => d.key)).toEqual(['uploads/beta.txt']);
    const byTopic = await get<{ items: { id: string }[] }>(`/api/documents?topic=${topic?.id}`);
    expect(byTopic.body.items.map((d) => d.id)).toEqual([a]);
    const paged = await get<{ items: { key: string }[]; total: number; limit: number; offset: number }>(
      '/api/documents?limit=1&offset=1',
    );
    expect(paged.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(paged.body.items).toHaveLength(1);

    const detail = await get<{ topics: { name: string }[] }>(`/api/documents/${a}`);
    expect(detail.body.topics.map((t) => t.name)).toContain('letters (by hand)');
    const topicDetail = await get<{ name: string; documents: { id: string }[] }>(`/api/topics/${topic?.id}`);
    expect(topicDetail.body).toMatchObject({
      name: 'letters (by hand)',
      documents: [expect.objectContaining({ id: a })],
    });
    const topicDocs = await get<{ total: number }>(`/api/topics/${topic?.id}/documents?limit=5`);
    expect(topicDocs.body.total).toBe(1);

    const [other] = await rt.db.insert(schema.topics).values({ name: 'letters (second)' }).returning();
    const beta = byType.body.items[0]?.id ?? '';
    await rt.db.insert(schema.documentTopics).values({ documentId: beta, topicId: other?.id ?? '' });
    const merge = await app.request('/api/topics/merge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sourceIds: [other?.id], targetId: topic?.id }),
    });
    expect(merge.status).toBe(200);
    expect(await merge.json()).toMatchObject({ id: topic?.id, documentCount: 2 });
    expect((await get(`/api/topics/${other?.id}`)).status).toBe(404);
  });

  it('answers bad input with a JSON error naming the field', async () => {
    const bad = await get<{ error: { code: string; message: string } }>('/api/documents?status=done&limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(bad.body.error.message).toContain('query.status');
    expect(bad.body.error.message).toContain('query.limit');
    const missing = await get<{ error: { code: string } }>(
      '/api/topics/00000000-0000-4000-8000-000000000000/documents',
    );
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  });

  it('reindexes a document without a new version when nothing changed', async () => {
    const id = await upload('same.md', '# Same\n\nNothing changes here.\n');
    const res = await app.request(`/api/documents/${id}/reindex`, { method: 'POST' });
    expect(res.status).toBe(202);
    await rt.ingest.idle();
    const detail = await get<{ status: string; currentVersion: number; versions: unknown[] }>(
      `/api/documents/${id}`,
    );
    expect(detail.body).toMatchObject({ status: 'ready', currentVersion: 1 });
    expect(detail.body.versions).toHaveLength(1);
  });

  it('says a presigned upload URL is not supported by the local bucket', async () => {
    const res = await app.request('/api/documents/upload-url', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'big.pdf', size: 1000 }),
    });
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ supported: false, error: { code: 'not_supported' } });
  });

  it('describes every documents and topics route in the OpenAPI document', async () => {
    const { body } = await get<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json');
    for (const path of [
      '/api/documents/upload',
      '/api/documents/upload-url',
      '/api/documents',
      '/api/documents/{id}',
      '/api/documents/{id}/versions',
      '/api/documents/{id}/reindex',
      '/api/documents/{id}/structure',
      '/api/topics',
      '/api/topics/{id}',
      '/api/topics/{id}/documents',
    ]) {
      expect(body.paths[path], path).toBeDefined();
    }
    const list = body.paths['/api/documents']?.get as { parameters: { name: string }[] };
    expect(list.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['limit', 'offset', 'status', 'name', 'type', 'topic']),
    );
  });
});
