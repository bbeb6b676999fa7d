/**
 * Question answering latency: time to the first event, to the first answer delta and to `done` for
 * each built mode, offline and with a fake chat model of fixed latency L (default 500 ms,
 * BENCH_QA_LATENCY_MS). Run alone (`node bin/run-ts.js bench/qa.ts`, BENCH_QA_DOCS documents,
 * default 100) or from bench/run.ts on its corpus.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ZodType } from 'zod';
import { loadConfig } from '#shared/config/index.ts';
import type { ChatModel, ChatRequest, ChatResult, ChatStreamEvent } from '#shared/llm/types.ts';
import { ask, type QaDeps } from '#shared/qa/ask.ts';
import { askRequestSchema, type QaMode } from '#shared/qa/request.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { generateDocument, generateQueries } from './corpus.ts';

type Row = { metric: string; value: string; target: string };

const LATENCY = Number(process.env.BENCH_QA_LATENCY_MS ?? 500);
const QUESTIONS = 5;

/**
 * A chat model answering after a fixed latency: the judge says "insufficient" (so auto goes on to
 * the agent), the agent plans one full-text search then answers, answers stream in three pieces.
 */
function fixedLatencyChat(latencyMs: number): ChatModel {
  const wait = () => new Promise((resolve) => setTimeout(resolve, latencyMs));
  const usage = { inputTokens: 100, outputTokens: 20 };
  return {
    provider: 'openai',
    async complete(request: ChatRequest): Promise<ChatResult> {
      await wait();
      const turns = request.messages.filter((m) => m.role === 'assistant').length;
      const toolCalls =
        turns === 0
          ? [{ id: 't1', name: 'fulltext_search', input: { query: 'report' } }]
          : [
              {
                id: 't2',
                name: 'final_answer',
                input: { answer: 'The reports say so [1].', confidence: 'medium' },
              },
            ];
      return { text: '', model: 'fixed-latency', usage, toolCalls, stopReason: 'tool_use' };
    },
    async *stream(): AsyncIterable<ChatStreamEvent> {
      await wait();
      for (const text of ['The answer ', 'is in ', 'the reports [1].']) yield { type: 'delta', text };
      yield { type: 'usage', usage, model: 'fixed-latency' };
    },
    async structured<T>(_request: ChatRequest, schema: ZodType<T>) {
      await wait();
      return {
        value: schema.parse({ sufficient: false, reason: 'benchmark' }),
        usage,
        model: 'fixed-latency',
      };
    },
  };
}

/** One question in one mode: ms to the first event, to the first answer delta and to the end. */
export async function timeAsk(deps: QaDeps, question: string, mode: QaMode) {
  const started = performance.now();
  let first = 0;
  let firstDelta = 0;
  let total = 0;
  let answered = 'none';
  for await (const event of ask(deps, askRequestSchema.parse({ question, mode }))) {
    const at = performance.now() - started;
    if (!first) first = at;
    if (event.type === 'delta' && !firstDelta) firstDelta = at;
    if (event.type === 'done') answered = event.data.response.mode;
    if (event.type === 'error') throw new Error(`${mode}: ${event.data.message}`);
    total = at;
  }
  return { first, firstDelta, total, answered };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The benchmark's questions over its generated corpus. */
export const benchQuestions = () =>
  generateQueries(QUESTIONS, 11).map((q) => `What do the documents say about ${q}?`);

/** Median first event, first delta and total of `questions` in one mode (after one warm-up ask). */
export async function askStats(deps: QaDeps, questions: string[], mode: QaMode) {
  await timeAsk(deps, questions[0] ?? 'report', mode);
  const runs = [];
  for (const q of questions) runs.push(await timeAsk(deps, q, mode));
  return {
    firstEventMs: median(runs.map((r) => r.first)),
    firstDeltaMs: median(runs.map((r) => r.firstDelta)),
    totalMs: median(runs.map((r) => r.total)),
    answered: [...new Set(runs.map((r) => r.answered))].join('/'),
  };
}

/** A table row of `askStats`. */
export function askRow(metric: string, stats: Awaited<ReturnType<typeof askStats>>): Row {
  return {
    metric: `${metric}: first event / first delta / done`,
    value: `${stats.firstEventMs.toFixed(1)} / ${stats.firstDeltaMs.toFixed(0)} / ${stats.totalMs.toFixed(0)} ms`,
    target: 'first event < 150 ms',
  };
}

/** Median first event, first delta and total per mode, offline and with the fixed-latency model. */
export async function benchQa(rt: Runtime, results: Record<string, unknown>): Promise<Row[]> {
  const questions = benchQuestions();
  const setups: { label: string; deps: QaDeps }[] = [
    { label: 'offline', deps: rt.qa },
    {
      label: `model L=${LATENCY} ms`,
      deps: {
        ...rt.qa,
        providers: { ...rt.qa.providers, chat: fixedLatencyChat(LATENCY), label: 'fixed latency' },
      },
    },
  ];
  const rows: Row[] = [];
  const out: Record<string, unknown> = {};
  for (const setup of setups) {
    for (const mode of ['standard', 'auto', 'agent'] as const) {
      const stats = await askStats(setup.deps, questions, mode);
      out[`${setup.label} ${mode}`] = stats;
      rows.push(askRow(`ask ${mode} (${setup.label}, answered ${stats.answered})`, stats));
    }
  }
  results.qa = out;
  return rows;
}

async function standalone(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-bench-qa-'));
  try {
    const rt = await openRuntime(loadConfig({ overrides: { dataDir } }));
    const docs = Number(process.env.BENCH_QA_DOCS ?? 100);
    const files = Array.from({ length: docs }, (_, i) => {
      const doc = generateDocument(i, 20);
      return { key: `bench/${doc.name}`, filename: doc.name, bytes: new TextEncoder().encode(doc.text) };
    });
    await rt.ingest.ingest(files, () => {});
    const rows = await benchQa(rt, {});
    for (const row of rows) console.log(`| ${row.metric} | ${row.value} | ${row.target} |`);
    await rt.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await standalone();
  process.exit(0);
}
