/**
 * Question-answering modes benchmark (issue 6 targets): a chat model of fixed latency L
 * (BENCH_MODEL_LATENCY_MS, default 500: every call answers after L, a stream's first text after L)
 * drives `ask` over a small corpus with Markdown renditions, in-process. Reports the first SSE event
 * per mode (< 150 ms), the two-stage first answer delta with and without the speculative report
 * (<= 3L + 0.5 s and <= 4L + 0.5 s), the documents mode's first delta over 3 documents (<= 2L + 0.5 s),
 * and the two-stage retrieval for one sub-query (`retrieveSubQuery`, the function each stage runs per
 * sub-query; p95 < 100 ms) on the corpus `benchQaModes` is given: the 1,000 documents of
 * bench/run.ts, or standalone (`node bin/run-ts.js bench/qa-modes.ts`) a corpus of BENCH_DOCS
 * (default 1000) generated documents, or the one already in BENCH_DATA_DIR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ZodType } from 'zod';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import { openPglite } from '#shared/db/client.ts';
import type { ChatModel, ChatRequest, ChatStreamEvent } from '#shared/llm/types.ts';
import { ask, type QaDeps } from '#shared/qa/ask.ts';
import { askRequestSchema, type QaMode } from '#shared/qa/request.ts';
import type { TwoStageDeps } from '#shared/qa/two-stage/flow.ts';
import { retrieveSubQuery } from '#shared/qa/two-stage/retrieve.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { doc, para, section, testEmbedder } from '../tests/helpers/corpus.ts';
import { promptText } from '../tests/helpers/scripted-chat.ts';
import { indexWithRenditions } from '../tests/integration/qa/documents-corpus.ts';
import { generateDocument, generateQueries } from './corpus.ts';

export type BenchRow = { metric: string; value: string; target: string };

const L = Number(process.env.BENCH_MODEL_LATENCY_MS ?? 500);
const RUNS = 3;
const RETRIEVAL_QUERIES = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first `<document index="1">` passage's first sentence: a verbatim extract for the judge. */
function firstSentence(request: ChatRequest): string {
  const body = /<document index="1"[^\n]*\n([\s\S]*?)\n<\/document>/.exec(promptText(request))?.[1] ?? '';
  return /^[^。.!?！？]+[。.!?！？]?/.exec(body)?.[0] ?? body;
}

/** A chat model answering every role after `latency` ms; streams start after `latency` too. */
function latencyChat(latency: number): ChatModel {
  const usage = { inputTokens: 100, outputTokens: 20 };
  const reply = (request: ChatRequest): unknown => {
    if (request.role === 'decompose' && promptText(request).includes('document_keywords'))
      return { intent: 'corpus', document_keywords: [], section_categories: [], reason: 'several topics' };
    if (request.role === 'decompose')
      return {
        subqueries: [
          { text: '云平台建设的预算', focus: '预算' },
          { text: '云平台项目的负责人', focus: '负责人' },
          { text: '迁移的主要风险', focus: '风险' },
        ],
      };
    if (request.role === 'judge') {
      const text = firstSentence(request);
      return { extracts: text ? [{ passage: 1, text }] : [], answer: text, confidence: 'high', missing: [] };
    }
    if (request.role === 'sufficiency')
      return { sufficient: true, confidence: 'high', covered: [], missing: [], additional: [], reason: 'ok' };
    return '## 文档结构\n规划。\n\n## query的回复\n预算为500万。\n\n## 引用\n';
  };
  return {
    provider: 'openai',
    async complete(request) {
      await sleep(latency);
      return { text: String(reply(request)), model: 'fake', usage };
    },
    async *stream(): AsyncIterable<ChatStreamEvent> {
      await sleep(latency);
      for (const text of ['**TL;DR**：', '预算为500万。', '\n']) yield { type: 'delta', text };
      yield { type: 'usage', usage, model: 'fake' };
    },
    async structured<T>(request: ChatRequest, schema: ZodType<T>) {
      await sleep(latency);
      return { value: schema.parse(reply(request)), usage, model: 'fake' };
    },
  };
}

const PLAN = doc(
  '年度技术规划',
  section('云平台建设', para('计划将核心业务迁移至混合云架构，预计投入500万预算用于容器化改造。')),
  section('人员', para('云平台项目由张三负责，下设运维组和开发组。')),
);
const RISKS = doc(
  '风险评估',
  section('迁移风险', para('云平台迁移的主要风险是服务中断，需要准备回滚方案。')),
);
const BUDGET = doc('预算说明', section('云平台预算', para('云平台建设预算500万，其中容器化改造占300万。')));

async function timeAsk(deps: QaDeps, mode: QaMode, question: string, speculative?: boolean) {
  const request = askRequestSchema.parse({ question, mode });
  const qaDeps: TwoStageDeps = speculative === undefined ? deps : { ...deps, twoStage: { speculative } };
  const started = performance.now();
  let firstEvent = Number.NaN;
  let firstDelta = Number.NaN;
  let last = '';
  for await (const event of ask(qaDeps, request)) {
    const at = performance.now() - started;
    if (Number.isNaN(firstEvent)) firstEvent = at;
    if (event.type === 'delta' && Number.isNaN(firstDelta)) firstDelta = at;
    last = event.type;
  }
  if (last !== 'done') throw new Error(`${mode} ended with ${last}`);
  return { firstEvent, firstDelta };
}

/** Sub-query statements of 2-6 words (two generated queries each), as a decomposition writes them. */
function subQueries(count: number): string[] {
  const words = generateQueries(count * 2, 11);
  return Array.from({ length: count }, (_, i) => `${words[2 * i]} ${words[2 * i + 1]}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1] ?? Number.NaN;

/**
 * Runs the benchmark; `retrievalDeps` is a search over a large corpus (bench/run.ts passes its
 * runtime's). Adds `qaModes` to `results` and returns the table rows.
 */
export async function benchQaModes(
  retrievalDeps: QaDeps,
  results: Record<string, unknown> = {},
): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dropqa-bench-qa-'));
  const database = await openPglite();
  try {
    const embedder = testEmbedder();
    const store = new LocalBlobStore(dir);
    await indexWithRenditions(database.db, store, [
      { filename: '规划.md', versions: [PLAN] },
      { filename: '风险.md', versions: [RISKS] },
      { filename: '预算.md', versions: [BUDGET] },
    ]);
    const config = loadConfig({ env: {} });
    const deps = {
      db: database.db,
      access: ALL_COLLECTIONS,
      embedder,
      search: config.search,
      store,
      providers: { embedder, chat: latencyChat(L), label: `fake (L = ${L} ms)` },
    } as QaDeps;
    const question = '云平台建设的预算是多少？谁负责？有什么风险？';
    await timeAsk(deps, 'standard', question);
    const runs: Record<string, { firstEvent: number; firstDelta: number }[]> = {};
    const cases: [string, QaMode, boolean | undefined][] = [
      ['auto', 'auto', undefined],
      ['two-stage', 'two-stage', undefined],
      ['two-stage (no speculative answer)', 'two-stage', false],
      ['documents', 'documents', undefined],
    ];
    for (const [name, mode, speculative] of cases) {
      runs[name] = [];
      for (let i = 0; i < RUNS; i++) runs[name].push(await timeAsk(deps, mode, question, speculative));
    }
    const retrieval: number[] = [];
    const topK = (retrievalDeps as TwoStageDeps).twoStage?.topK ?? retrievalDeps.search.topK;
    const statements = subQueries(RETRIEVAL_QUERIES);
    await retrieveSubQuery(retrievalDeps, { text: statements[0] ?? 'budget' }, {}, topK);
    for (const text of statements) {
      const started = performance.now();
      await retrieveSubQuery(retrievalDeps, { text }, {}, topK);
      retrieval.push(performance.now() - started);
    }
    const firstEvent = Math.max(...Object.values(runs).flatMap((r) => r.map((x) => x.firstEvent)));
    const delta = (name: string) => median((runs[name] ?? []).map((r) => r.firstDelta));
    results.qaModes = {
      latencyMs: L,
      runs,
      subQueryRetrievalMs: { p50: median(retrieval), p95: p95(retrieval), topK, queries: retrieval.length },
    };
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    return [
      {
        metric: 'qa first SSE event, any mode (max of runs)',
        value: `${firstEvent.toFixed(1)} ms`,
        target: '< 150 ms',
      },
      {
        metric: `qa two-stage first delta, speculative (L = ${L} ms, median)`,
        value: s(delta('two-stage')),
        target: `<= ${s(3 * L + 500)}`,
      },
      {
        metric: `qa two-stage first delta, not speculative (L = ${L} ms, median)`,
        value: s(delta('two-stage (no speculative answer)')),
        target: `<= ${s(4 * L + 500)}`,
      },
      {
        metric: `qa documents first delta, 3 documents (L = ${L} ms, median)`,
        value: s(delta('documents')),
        target: `<= ${s(2 * L + 500)}`,
      },
      { metric: `qa auto first delta (L = ${L} ms, median)`, value: s(delta('auto')), target: '' },
      {
        metric: `qa two-stage retrieval for one sub-query (retrieveSubQuery, top ${topK}) p50 / p95`,
        value: `${median(retrieval).toFixed(1)} / ${p95(retrieval).toFixed(1)} ms`,
        target: 'p95 < 100 ms',
      },
    ];
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Standalone: ingests BENCH_DOCS generated documents into a temporary data folder, or, with
 * BENCH_DATA_DIR, reuses a data folder that already holds a corpus (e.g. one bench/run.ts built).
 */
async function standalone(): Promise<void> {
  const { openRuntime } = await import('#shared/runtime/runtime.ts');
  const docs = Number(process.env.BENCH_DOCS ?? 1000);
  const reuse = process.env.BENCH_DATA_DIR;
  const dataDir = reuse ?? mkdtempSync(join(tmpdir(), 'dropqa-bench-qa-corpus-'));
  const rt = await openRuntime(loadConfig({ overrides: { dataDir, providers: { ocr: { kind: 'none' } } } }));
  try {
    if (!reuse) {
      const files = Array.from({ length: docs }, (_, i) => {
        const d = generateDocument(i, 50);
        return { key: `bench/${d.name}`, filename: d.name, bytes: new TextEncoder().encode(d.text) };
      });
      process.stderr.write(`ingesting ${docs} documents...\n`);
      await rt.ingest.ingest(files);
    }
    const rows = await benchQaModes(rt.qa);
    for (const r of rows) console.log(`| ${r.metric} | ${r.value} | ${r.target} |`);
  } finally {
    await rt.close();
    if (!reuse) rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await standalone();
