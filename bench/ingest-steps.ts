/**
 * `node bin/run-ts.js bench/ingest-steps.ts <BEIR set dir> [--docs N] [--top K]`: ingests the first N
 * corpus entries of a BEIR set (default 200), or with `--generated` instead of a directory N
 * generated documents of `--paragraphs 50` (bench/corpus.ts), one execution at a time into a fresh embedded data
 * folder, and prints per pipeline step the mean wall and CPU milliseconds and the SQL statements per
 * document, then the K statements run most often. One execution at a time so that every statement
 * and every CPU millisecond belongs to the step that ran it ("runner": between steps). Counts
 * statements through the PGlite instance, opened on this thread for it (`database.embedded.worker`
 * false), so the CPU of the database is counted with the step too.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { loadConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import type { PipelineEvent } from '#shared/pipeline/types.ts';
import { openRuntime } from '#shared/runtime/runtime.ts';
import { generateDocument } from './corpus.ts';
import { beirMarkdown, loadBeirSet } from './eval/beir.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    docs: { type: 'string' },
    top: { type: 'string' },
    generated: { type: 'boolean' },
    paragraphs: { type: 'string' },
  },
});
const [dir] = positionals;
if (!dir && !values.generated) {
  console.error(
    'usage: node bin/run-ts.js bench/ingest-steps.ts <set dir> | --generated [--paragraphs P] [--docs N] [--top K]',
  );
  process.exit(2);
}
const docs = Number(values.docs ?? 200);
const top = Number(values.top ?? 25);

let current = 'runner';
const statements = new Map<string, number>();
const byText = new Map<string, { times: number; ms: number }>();
/** Counts a statement under the running step; returns what records its duration once it settles. */
const count = (text: string) => {
  statements.set(current, (statements.get(current) ?? 0) + 1);
  const shape = `${current}: ${text.replace(/\s+/g, ' ').trim().slice(0, 140)}`;
  const entry = byText.get(shape) ?? { times: 0, ms: 0 };
  entry.times += 1;
  byText.set(shape, entry);
  const began = performance.now();
  return () => {
    entry.ms += performance.now() - began;
  };
};
const timed = <T>(done: () => void, promise: Promise<T>): Promise<T> => promise.finally(done);
type Query = PGlite['query'];
const proto = PGlite.prototype as unknown as { query: Query; transaction: PGlite['transaction'] };
const query = proto.query;
proto.query = function (this: PGlite, text, params, options) {
  return timed(count(text), query.call(this, text, params, options));
} as Query;
const transaction = proto.transaction;
proto.transaction = function (this: PGlite, run) {
  count('BEGIN');
  return transaction.call(this, (tx) => {
    const inner = tx.query.bind(tx);
    return run(
      Object.assign(Object.create(tx) as typeof tx, {
        query: ((text, params, options) => {
          return timed(count(text), inner(text, params, options));
        }) as typeof tx.query,
      }),
    );
  });
} as PGlite['transaction'];

const set = dir ? loadBeirSet(resolve(dir)) : undefined;
const name = set?.name ?? `generated (${values.paragraphs ?? 50} paragraphs)`;
const files = set
  ? set.documents.slice(0, docs).map((doc) => ({
      key: `eval/${set.name}/${doc.id.replace(/[^\p{L}\p{N}._-]/gu, '_')}.md`,
      bytes: new TextEncoder().encode(beirMarkdown(doc)),
    }))
  : Array.from({ length: docs }, (_, i) => {
      const doc = generateDocument(i, Number(values.paragraphs ?? 50));
      return { key: `bench/${doc.name}`, bytes: new TextEncoder().encode(doc.text) };
    });
const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-ingest-steps-'));
// The database on this thread (not the worker the product uses), so its statements can be counted.
const config = loadConfig({
  overrides: { dataDir, limits: { pipelineConcurrency: 1 }, database: { embedded: { worker: false } } },
});
const rt = await openRuntime(config);
const wall = new Map<string, number>();
const cpu = new Map<string, number>();
const runs = new Map<string, number>();
let since = performance.now();
let cpuSince = process.cpuUsage();
const windowSize = Math.max(1, Math.ceil(files.length / 5));
let windowStart = performance.now();
let windowTopics = 0;
let windowTopicsCpu = 0;
let windowTopicsStatements = 0;
let topicsStatementsAtStart = 0;
let finished = 0;
const windows: string[] = [];
const switchTo = (next: string) => {
  const now = performance.now();
  const used = process.cpuUsage(cpuSince);
  wall.set(current, (wall.get(current) ?? 0) + now - since);
  cpu.set(current, (cpu.get(current) ?? 0) + (used.user + used.system) / 1000);
  since = now;
  cpuSince = process.cpuUsage();
  current = next;
};
const onEvent = (event: PipelineEvent) => {
  if (event.type === 'step-started') {
    switchTo(event.step);
    if (event.step === 'Topics') topicsStatementsAtStart = statements.get('Topics') ?? 0;
    runs.set(event.step, (runs.get(event.step) ?? 0) + 1);
  } else if (event.type === 'step-finished') {
    if (event.step !== 'Topics') switchTo('runner');
    else {
      windowTopics += performance.now() - since;
      const cpuBefore = cpu.get('Topics') ?? 0;
      switchTo('runner');
      windowTopicsCpu += (cpu.get('Topics') ?? 0) - cpuBefore;
      windowTopicsStatements += (statements.get('Topics') ?? 0) - topicsStatementsAtStart;
    }
  } else if (event.type === 'finished' && ++finished % windowSize === 0) {
    const ms = performance.now() - windowStart;
    windows.push(
      `docs ${finished - windowSize + 1}-${finished}: ${(ms / windowSize).toFixed(1)} ms/doc, Topics ${(windowTopics / windowSize).toFixed(1)} ms (CPU ${(windowTopicsCpu / windowSize).toFixed(1)} ms, ${(windowTopicsStatements / windowSize).toFixed(1)} statements)`,
    );
    windowStart = performance.now();
    [windowTopics, windowTopicsCpu, windowTopicsStatements] = [0, 0, 0];
  }
};
const started = performance.now();
const outcomes = await rt.ingest.ingest(files, undefined, onEvent);
switchTo('runner');
const seconds = (performance.now() - started) / 1000;
const [topicCount] = await queryRows<{ n: number }>(rt.db, sql`SELECT count(*)::int AS n FROM topics`);
await rt.close();
rmSync(dataDir, { recursive: true, force: true });

const failed = outcomes.filter((o) => o.status === 'failed');
const n = files.length;
console.log(
  `\n${name}: ${n} documents in ${seconds.toFixed(1)} s (${(n / seconds).toFixed(1)} docs/s, one at a time), ${failed.length} failed`,
);
console.log(windows.join('\n'));
console.log(`topics: ${topicCount?.n}`);
console.log('| step | runs | wall ms/doc | CPU ms/doc | statements/doc |');
console.log('|---|---|---|---|---|');
let total = 0;
for (const [step, ms] of wall) {
  total += statements.get(step) ?? 0;
  console.log(
    `| ${step} | ${runs.get(step) ?? '-'} | ${(ms / n).toFixed(1)} | ${((cpu.get(step) ?? 0) / n).toFixed(1)} | ${((statements.get(step) ?? 0) / n).toFixed(1)} |`,
  );
}
console.log(`| all | | ${((seconds * 1000) / n).toFixed(1)} | | ${(total / n).toFixed(1)} |`);
console.log(`\nstatements taking the most time (per document: how many, ms):`);
for (const [text, { times, ms }] of [...byText].sort((a, b) => b[1].ms - a[1].ms).slice(0, top))
  console.log(`${(times / n).toFixed(2).padStart(6)} ${(ms / n).toFixed(2).padStart(6)}  ${text}`);
