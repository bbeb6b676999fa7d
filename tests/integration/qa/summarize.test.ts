import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { createApp } from '#shared/api/app.ts';
import { parseSse } from '#shared/cli/http-backend.ts';
import { loadConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/client.ts';
import { summarize } from '#shared/qa/summarize/flow.ts';
import type { SummarizeEvent } from '#shared/qa/summarize/request.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { promptText, scriptedChat } from '../../helpers/scripted-chat.ts';

const PLAN = `# 年度技术规划

## 云平台建设

计划将核心业务迁移至混合云架构，预计投入500万预算用于容器化改造。

## 人员

团队由张三负责，下设运维组和开发组。
`;

describe('summarize', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;
  let id: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-summarize-'));
    rt = await openRuntime(
      loadConfig({ env: {}, overrides: { dataDir: dir, providers: { ocr: { kind: 'none' } } } }),
    );
    app = createApp(rt);
    const body = new FormData();
    body.append('files', new Blob([PLAN]), '规划.md');
    const res = await app.request('/api/documents/upload', { method: 'POST', body });
    id = ((await res.json()) as { documents: { id: string }[] }).documents[0]?.id ?? '';
    await rt.ingest.idle();
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: unknown) =>
    app.request('/api/qa/summarize', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function events(res: Response): Promise<SummarizeEvent[]> {
    const out: SummarizeEvent[] = [];
    for await (const e of parseSse(res.body as ReadableStream<Uint8Array>))
      out.push(e as unknown as SummarizeEvent);
    return out;
  }

  it('streams an offline summary of a document, labelled, from its stored summaries', async () => {
    const res = await post({ document_id: id });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const stream = await events(res);
    expect(stream.map((e) => e.type)).toEqual(
      expect.arrayContaining(['meta', 'progress', 'delta', 'references', 'done']),
    );
    expect(stream[0]).toMatchObject({
      type: 'meta',
      data: { kind: 'document', id, name: '规划.md', version: 1 },
    });
    const done = stream.at(-1);
    if (done?.type !== 'done') throw new Error('no done event');
    const text = stream.flatMap((e) => (e.type === 'delta' ? [e.data.text] : [])).join('');
    expect(text).toBe(done.data.summary);
    expect(done.data.summary).toMatch(/^离线摘要/);
    expect(done.data.summary).toContain('500万');
  });

  it('summarizes a topic from its documents', async () => {
    const [topic] = await queryRows<{ id: string }>(
      rt.db,
      sql`SELECT topic_id AS id FROM document_topics LIMIT 1`,
    );
    expect(topic).toBeDefined();
    const stream = await events(await post({ topic_id: topic?.id }));
    expect(stream.find((e) => e.type === 'references')?.data).toEqual({
      documents: [{ document_id: id, document_name: '规划.md', version: 1 }],
    });
    const done = stream.at(-1);
    expect(done?.type === 'done' && done.data.summary).toContain('《规划.md》');
  });

  it('writes the summary with the model of role summarize, the document as data', async () => {
    const chat = scriptedChat(() => '这是一份技术规划。');
    const out: SummarizeEvent[] = [];
    for await (const e of summarize(
      { db: rt.db, providers: { ...rt.providers, chat }, access: ALL_COLLECTIONS },
      { document_id: id },
    ))
      out.push(e);
    expect(chat.calls.map((c) => c.request.role)).toEqual(['summarize']);
    const prompt = promptText(chat.calls[0]?.request ?? { role: 'summarize', messages: [] });
    expect(prompt).toContain('<document name="规划.md">');
    expect(prompt).toContain('云平台建设');
    expect(out.find((e) => e.type === 'usage')?.data).toMatchObject({ stage: 'summarize' });
    expect(out.at(-1)).toMatchObject({ type: 'done', data: { summary: '这是一份技术规划。' } });
  });

  it('answers 404 for an unknown document and 400 without exactly one target', async () => {
    expect((await post({ document_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await post({})).status).toBe(400);
    expect((await post({ document_id: id, topic_id: id })).status).toBe(400);
  });
});
