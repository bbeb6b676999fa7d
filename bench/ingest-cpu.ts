/**
 * `node bin/run-ts.js bench/ingest-cpu.ts [--docs 300] [--paragraphs 50] [--keep <dir>] [--steps]`:
 * ingests the generated corpus of bench/corpus.ts the way `dropqa serve` does (the database in its
 * worker thread, the default concurrency) and prints the CPU each thread spent (Linux
 * `/proc/self/task/<tid>/schedstat`), split into the documents' phase (until the last document was
 * done) and the end-of-batch phase (the deferred index builds and ANALYZE), beside the wall times.
 * CPU is the number to compare on a shared machine: wall time there depends on the other load.
 * The database worker is the busiest thread besides the main one; the other threads are mostly
 * V8's (garbage collection, compilation). `--steps` ingests one document at a time and splits the
 * CPU by pipeline step. On stderr: the monotonic clock (µs) at the start, a third of the way, the
 * last document and the end, to cut a `node --cpu-prof` profile to a phase, and each thread's CPU.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '#shared/config/index.ts';
import type { PipelineEvent } from '#shared/pipeline/types.ts';
import { openRuntime } from '#shared/runtime/runtime.ts';
import { generateDocument } from './corpus.ts';

const { values } = parseArgs({
  options: {
    docs: { type: 'string' },
    paragraphs: { type: 'string' },
    keep: { type: 'string' },
    steps: { type: 'boolean' },
  },
});
const docs = Number(values.docs ?? 300);
const paragraphs = Number(values.paragraphs ?? 50);

/** CPU nanoseconds of each thread of this process, by thread id. */
function threadCpu(): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const [ns] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ');
      cpu.set(Number(tid), Number(ns));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
}

/** Seconds of CPU between two samples: the main thread, the busiest other thread, the rest. */
function split(before: Map<number, number>, after: Map<number, number>, worker: number) {
  let main = 0;
  let db = 0;
  let rest = 0;
  for (const [tid, ns] of after) {
    const used = (ns - (before.get(tid) ?? 0)) / 1e9;
    if (tid === process.pid) main += used;
    else if (tid === worker) db += used;
    else rest += used;
  }
  return { main, db, rest, all: main + db + rest };
}

const files = Array.from({ length: docs }, (_, i) => {
  const doc = generateDocument(i, paragraphs);
  return { key: `bench/${doc.name}`, bytes: new TextEncoder().encode(doc.text) };
});
const dataDir = values.keep ?? mkdtempSync(join(tmpdir(), 'dropqa-ingest-cpu-'));
// With --steps one document at a time, so each step's CPU is its own.
const limits = values.steps ? { limits: { pipelineConcurrency: 1 } } : {};
const rt = await openRuntime(loadConfig({ overrides: { dataDir, ...limits } }));
/** Per step (and 'between' steps), the CPU nanoseconds of each thread. */
const bySteps = new Map<string, Map<number, number>>();
let stepAt = { name: 'between', cpu: new Map<number, number>() };
const onEvent = (event: PipelineEvent) => {
  if (event.type !== 'step-started' && event.type !== 'step-finished') return;
  const now = threadCpu();
  const used = bySteps.get(stepAt.name) ?? new Map<number, number>();
  for (const [tid, ns] of now) used.set(tid, (used.get(tid) ?? 0) + ns - (stepAt.cpu.get(tid) ?? ns));
  bySteps.set(stepAt.name, used);
  stepAt = { name: event.type === 'step-started' ? event.step : 'between', cpu: now };
};
const start = threadCpu();
const began = performance.now();
/** Monotonic microseconds, the clock of `node --cpu-prof` profiles (to cut them to the phases). */
const monotonic = () => Number(process.hrtime.bigint() / 1000n);
const marks = { began: monotonic(), third: 0, lastDone: 0, ended: 0 };
let lastDone = { at: 0, cpu: start };
let done = 0;
if (values.steps) stepAt.cpu = threadCpu();
const outcomes = await rt.ingest.ingest(
  files,
  (_outcome) => {
    done += 1;
    if (done === Math.floor(files.length / 3)) marks.third = monotonic();
    if (done === files.length) {
      lastDone = { at: performance.now(), cpu: threadCpu() };
      marks.lastDone = monotonic();
    }
  },
  values.steps ? onEvent : undefined,
);
const end = threadCpu();
const ended = performance.now();
marks.ended = monotonic();
await rt.close();
if (!values.keep) rmSync(dataDir, { recursive: true, force: true });

const failed = outcomes.filter((o) => o.status !== 'ready');
// The database worker: the thread besides the main one that worked most over the whole load.
const [worker = 0] =
  [...end]
    .filter(([tid]) => tid !== process.pid)
    .map(([tid, ns]) => [tid, ns - (start.get(tid) ?? 0)] as const)
    .sort((a, b) => b[1] - a[1])[0] ?? [];
const phases = [
  ['documents', split(start, lastDone.cpu, worker), (lastDone.at - began) / 1000],
  ['end of batch', split(lastDone.cpu, end, worker), (ended - lastDone.at) / 1000],
  ['all', split(start, end, worker), (ended - began) / 1000],
] as const;
console.log(
  `\n${docs} generated documents of ${paragraphs} paragraphs, ${failed.length} not ready, load ${loadavg()[0]?.toFixed(1)} at the end`,
);
console.log('| phase | wall s | CPU s: main | database worker | other threads | all | all per 1,000 docs |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, cpu, wall] of phases) {
  const row = [cpu.main, cpu.db, cpu.rest, cpu.all].map((s) => s.toFixed(2));
  console.log(
    `| ${name} | ${wall.toFixed(2)} | ${row.join(' | ')} | ${((cpu.all * 1000) / docs).toFixed(1)} |`,
  );
}
if (values.steps) {
  console.log('\n| step (one document at a time) | CPU ms/doc: main | database worker | other threads |');
  console.log('|---|---|---|---|');
  for (const [step, used] of bySteps) {
    const cpu = split(new Map(), used, worker);
    const ms = [cpu.main, cpu.db, cpu.rest].map((s) => ((s * 1000) / docs).toFixed(1));
    console.log(`| ${step} | ${ms.join(' | ')} |`);
  }
}
process.stderr.write(`monotonic µs: ${JSON.stringify(marks)}\n`);
process.stderr.write(
  `threads (CPU s over the load): ${[...end]
    .map(([tid, ns]) => [tid, (ns - (start.get(tid) ?? 0)) / 1e9] as const)
    .filter(([, s]) => s > 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([tid, s]) => `${tid === process.pid ? 'main' : tid === worker ? 'db' : tid}: ${s.toFixed(2)}`)
    .join(', ')}\n`,
);
