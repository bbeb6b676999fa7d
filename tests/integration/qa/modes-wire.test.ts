import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { renderMarkdown } from '#shared/parse/render-markdown.ts';
import { ask } from '#shared/qa/ask.ts';
import type { DocumentsDeps } from '#shared/qa/documents/flow.ts';
import { shortDocId, splitIntoBlocks } from '#shared/qa/documents/markers.ts';
import type { QaEvent } from '#shared/qa/events.ts';
import { type AskRequestInput, askRequestSchema } from '#shared/qa/request.ts';
import { retrieveSubQuery } from '#shared/qa/two-stage/retrieve.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { FAKE_MODELS, type FakeServer, fakeProviders, startFake } from '../../fakes/index.ts';
import { doc, type IndexedDocument, para, section, testEmbedder } from '../../helpers/corpus.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { textPng } from '../../helpers/text-png.ts';
import { BEDROCK, OPENAI, type Protocol } from '../llm/protocols.ts';
import { indexWithRenditions } from './documents-corpus.ts';
import { collect, done } from './events.ts';

/**
 * The two-stage and documents modes through the real OpenAI-compatible and Bedrock clients against
 * the wire fakes: what each request carried (model, per-role settings, schemas, delimited passages,
 * images) and what the stream said.
 */
const BUDGET = '计划将核心业务迁移至混合云架构，预计投入500万预算用于容器化改造。';
const RISK = '云平台迁移的主要风险是服务中断，需要准备回滚方案。';
const CORE = 'JOIN的核心功能是团队协作空间，支持实时文档共享和任务看板。';
const PNG = textPng('PLAN');

const PLAN = doc('年度技术规划', section('云平台建设', para(BUDGET)), section('人员', para('张三负责。')));
const RISKS = doc('风险评估', section('迁移风险', para(RISK)));
const JOIN = {
  ...doc(
    'JOIN 产品需求',
    section('核心功能', para(CORE), { type: 'image' as const, name: 'img_001.png', alt: 'JOIN产品架构图' }),
  ),
  images: [{ name: 'img_001.png', bytes: PNG, mime: 'image/png' }],
};

/** Distinct per-role temperatures, so each request shows which role's settings it was sent with. */
const ROLES = {
  decompose: { temperature: 0.1 },
  judge: { temperature: 0.3 },
  sufficiency: { temperature: 0.5 },
  answer: { temperature: 0.7, maxTokens: 2000 },
};

const streamed = (events: QaEvent[]) =>
  events.flatMap((e) => (e.type === 'delta' ? [e.data.text] : [])).join('');
const stages = (events: QaEvent[], type: 'progress' | 'usage') =>
  events.flatMap((e) => (e.type === type ? [e.data.stage] : []));
const schemaKeys = (protocol: Protocol, body: unknown) =>
  Object.keys(protocol.structuredSchema(body).properties as object)
    .sort()
    .join(',');

describe.each(DRIVERS)('two-stage and documents modes through the real clients (%s)', (driver) => {
  let database: Database;
  let embedder: Embedder;
  let dir: string;
  let store: LocalBlobStore;
  let docs: Map<string, IndexedDocument>;
  const fakes = new Map<Protocol['kind'], FakeServer>();
  const config = loadConfig({ env: {} });

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    embedder = testEmbedder();
    dir = mkdtempSync(join(tmpdir(), 'dropqa-modes-wire-'));
    store = new LocalBlobStore(dir);
    docs = await indexWithRenditions(database.db, store, [
      { filename: '规划.md', versions: [PLAN] },
      { filename: '风险.md', versions: [RISKS] },
      { filename: 'JOIN需求.md', versions: [JOIN] },
    ]);
    for (const kind of ['openai', 'bedrock'] as const) fakes.set(kind, await startFake(kind));
  });

  afterAll(async () => {
    for (const fake of fakes.values()) await fake.stop();
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The real client of `protocol` for chat (fresh fake state); the corpus's embedder for search. */
  function wired(protocol: Protocol): { fake: FakeServer; deps: DocumentsDeps } {
    const fake = fakes.get(protocol.kind) as FakeServer;
    fake.reset();
    const providers = fakeProviders(protocol.kind, fake, { roles: ROLES });
    return {
      fake,
      deps: {
        db: database.db,
        access: ALL_COLLECTIONS,
        embedder,
        search: config.search,
        store,
        providers: { ...providers, embedder, label: `${protocol.kind} (fake)` },
        // The speculative report would race the sufficiency call for the fake's reply queue.
        twoStage: { speculative: false },
      } as DocumentsDeps,
    };
  }
  const request = (input: AskRequestInput) => askRequestSchema.parse({ show_reasoning: true, ...input });

  /** The `[n]` a judge sees `text` under: its rank among the sub-query's retrieved passages. */
  async function passageNumber(deps: DocumentsDeps, subquery: string, text: string): Promise<number> {
    const hits = await retrieveSubQuery(deps, { text: subquery }, {}, config.search.topK);
    const n = hits.findIndex((hit) => hit.content === text) + 1;
    expect(n, `"${text}" among the hits of "${subquery}"`).toBeGreaterThan(0);
    return n;
  }

  it.each([OPENAI, BEDROCK])(
    'runs decomposition, judges, a second stage and the report through $kind',
    async (protocol) => {
      const { fake, deps } = wired(protocol);
      const first = '云平台建设的预算金额';
      const second = '云平台迁移的主要风险';
      const judge = (n: number, text: string) =>
        protocol.structuredReply({
          extracts: [{ passage: n, text }],
          answer: text,
          confidence: 'high',
          missing: [],
        });
      const report = `**TL;DR**：预算500万，主要风险是服务中断。\n\n**结论**：见论据。\n\n**论据**：\n1. 《规划.md》“${BUDGET}”[1]\n2. 《风险.md》“${RISK}”[2]`;
      fake.enqueue(
        'chat',
        protocol.structuredReply({ subqueries: [{ text: first, focus: '预算' }] }),
        judge(await passageNumber(deps, first, BUDGET), BUDGET),
        protocol.structuredReply({
          sufficient: false,
          confidence: 'medium',
          covered: ['预算'],
          missing: ['风险'],
          additional: [{ text: second, focus: '风险' }],
          reason: '缺少风险信息。',
        }),
        judge(await passageNumber(deps, second, RISK), RISK),
        { text: report, chunks: [report.slice(0, 20), report.slice(20)] },
      );

      const events = await collect(
        ask(deps, request({ question: '云平台建设的预算是多少？有什么风险？', mode: 'two-stage' })),
      );
      const response = done(events);
      expect(events.some((e) => e.type === 'error')).toBe(false);
      expect(events[0]).toMatchObject({
        type: 'meta',
        data: { mode: 'two-stage', provider: `${protocol.kind} (fake)` },
      });
      expect(
        events.filter((e) => e.type === 'subqueries').map((e) => e.type === 'subqueries' && e.data.items),
      ).toEqual([[{ text: first, purpose: '预算' }], [{ text: second, purpose: '风险' }]]);
      expect(stages(events, 'progress')).toEqual([
        'decompose',
        'retrieve_1',
        'judge_1',
        'sufficiency',
        'retrieve_2',
        'judge_2',
        'answer',
      ]);
      expect(stages(events, 'usage')).toEqual(['decompose', 'judge', 'sufficiency', 'judge', 'answer']);
      expect(streamed(events)).toBe(report);

      const calls = fake.recorded(protocol.chatOp);
      const streams = fake.recorded(protocol.streamOp);
      expect(calls).toHaveLength(4);
      expect(streams).toHaveLength(1);
      expect(new Set([...calls, ...streams].map((r) => r.model))).toEqual(
        new Set([FAKE_MODELS[protocol.kind].chat]),
      );
      expect(calls.map((r) => schemaKeys(protocol, r.body))).toEqual([
        'subqueries',
        'answer,confidence,extracts,missing',
        'additional,confidence,covered,missing,reason,sufficient',
        'answer,confidence,extracts,missing',
      ]);
      expect([...calls, ...streams].map((r) => protocol.temperature(r.body))).toEqual([
        0.1, 0.3, 0.5, 0.3, 0.7,
      ]);
      expect(protocol.maxTokens(streams[0]?.body)).toBe(2000);
      expect(protocol.lastMessageText(calls[1]?.body)).toContain('<document index=');
      expect(protocol.lastMessageText(calls[3]?.body)).toContain(second);
      expect(protocol.system(streams[0]?.body)).toMatch(/report/);
      expect(protocol.lastMessageText(streams[0]?.body)).toContain(RISK);

      expect(response.mode).toBe('two-stage');
      expect(response.reasoning_steps).toBe(2);
      expect(response.answer).toBe(report);
      expect(response.sources.map((s) => [s.document_name, s.verified])).toEqual([
        ['规划.md', true],
        ['风险.md', true],
      ]);
    },
  );

  it('degrades instead of failing when every model call of two-stage answers 500', async () => {
    const { fake, deps } = wired(OPENAI);
    const failure = { error: { status: 500, type: 'server_error', message: 'model down' } };
    fake.enqueue('chat', ...Array.from({ length: 80 }, () => failure));
    const events = await collect(
      ask(deps, request({ question: '云平台建设的预算是多少？', mode: 'two-stage' })),
    );
    expect(events.some((e) => e.type === 'error')).toBe(false);
    const response = done(events);
    const trace = events.flatMap((e) => (e.type === 'trace' ? [e.data.content] : []));
    expect(trace).toContainEqual(
      expect.stringMatching(/^Decomposition failed \(.*model down.*\); sub-queries built/),
    );
    expect(trace).toContainEqual(expect.stringMatching(/judge failed: .*model down.*; judged offline/));
    const degraded = events.find((e) => e.type === 'progress' && e.data.stage === 'degraded');
    expect(degraded?.type === 'progress' && degraded.data.message).toMatch(
      /^模型回答时出错（.*model down.*）/,
    );
    expect(response.confidence).toBe('low');
    expect(response.answer).toContain(`“${BUDGET}”`);
    expect(response.sources[0]?.verified).toBe(true);
    expect(fake.recorded('chat-stream').length).toBeGreaterThan(0);
  });

  it.each([OPENAI, BEDROCK])(
    'reads each document with its images through $kind and resolves the answer’s markers',
    async (protocol) => {
      const { fake, deps } = wired(protocol);
      const join = docs.get('JOIN需求.md') as IndexedDocument;
      const plan = docs.get('规划.md') as IndexedDocument;
      const blocks = splitIntoBlocks(renderMarkdown(JOIN), shortDocId(join.id));
      const core = blocks.find((b) => b.kind === 'text' && b.text === CORE)?.ref;
      const image = blocks.find((b) => b.kind === 'image')?.ref;
      expect(core && image).toBeTruthy();
      const stage1 = `## 文档结构\n需求文档。\n\n## query的回复\n见 [${core}] 与 [${image}]。\n\n## 引用\n`;
      const answer = `JOIN的核心功能是团队协作空间 [${core}]，架构见图 [${image}]。`;
      fake.enqueue('chat', { text: stage1 }, { text: stage1 }, { text: answer });

      const events = await collect(
        ask(
          deps,
          request({
            question: 'JOIN的核心功能是什么？',
            mode: 'documents',
            document_ids: [join.id, plan.id],
          }),
        ),
      );
      const response = done(events);
      const stage1Progress = events.flatMap((e) =>
        e.type === 'progress' && e.data.stage === 'stage1'
          ? [[e.data.current, e.data.total, e.data.doc_name]]
          : [],
      );
      expect(stage1Progress.map(([current, total]) => [current, total])).toEqual([
        [1, 2],
        [2, 2],
      ]);
      expect(stage1Progress.map(([, , name]) => name).sort()).toEqual(['JOIN需求.md', '规划.md']);
      expect(stages(events, 'usage')).toEqual(['stage1', 'stage2']);
      expect(streamed(events)).toBe(answer);

      const reads = fake.recorded(protocol.chatOp);
      const syntheses = fake.recorded(protocol.streamOp);
      expect(reads).toHaveLength(2);
      expect(syntheses).toHaveLength(1);
      expect(reads.map((r) => protocol.temperature(r.body))).toEqual([0.3, 0.3]);
      expect(protocol.temperature(syntheses[0]?.body)).toBe(0.7);
      expect(reads.every((r) => /whole document/.test(protocol.system(r.body) ?? ''))).toBe(true);
      const withImage = reads.filter((r) => protocol.images(r.body).length > 0);
      expect(withImage).toHaveLength(1);
      const [sent] = protocol.images(withImage[0]?.body);
      expect(sent?.mime).toBe('image/png');
      expect(sent?.bytes.equals(Buffer.from(PNG))).toBe(true);
      expect(protocol.lastMessageText(withImage[0]?.body)).toContain(`[${image}: img_001.png]`);
      expect(protocol.lastMessageText(syntheses[0]?.body)).toContain(core);

      expect(response.mode).toBe('documents');
      expect(response.references?.map((r) => [r.ref_id, r.chunk_type])).toEqual([
        [core, 'text'],
        [image, 'image'],
      ]);
      expect(response.references?.[1]?.image_url).toContain(
        `/api/v1/documents/${join.id}/images/img_001.png`,
      );
      expect(response.references?.[0]?.content).toBe(CORE);
    },
  );

  it('answers from the Stage-1 findings with low confidence when the Stage-2 model call fails', async () => {
    const { fake, deps } = wired(OPENAI);
    const join = docs.get('JOIN需求.md') as IndexedDocument;
    const core = splitIntoBlocks(renderMarkdown(JOIN), shortDocId(join.id)).find(
      (b) => b.kind === 'text' && b.text === CORE,
    )?.ref;
    const failure = { error: { status: 500, type: 'server_error', message: 'synthesis down' } };
    fake.enqueue(
      'chat',
      { text: `## 文档结构\n需求文档。\n\n## query的回复\n见 [${core}]。\n\n## 引用\n` },
      ...Array.from({ length: 20 }, () => failure),
    );
    const events = await collect(
      ask(deps, request({ question: 'JOIN的核心功能是什么？', mode: 'documents', document_ids: [join.id] })),
    );
    expect(events.some((e) => e.type === 'error')).toBe(false);
    const response = done(events);
    const degraded = events.find((e) => e.type === 'progress' && e.data.stage === 'degraded');
    expect(degraded?.type === 'progress' && degraded.data.message).toMatch(/synthesis down/);
    expect(response.answer).toMatch(/^综合回答未能生成/);
    expect(response.answer).toContain('《JOIN需求.md》');
    expect(response.confidence).toBe('low');
    expect(response.references?.map((r) => r.ref_id)).toEqual([core]);
  });
});
