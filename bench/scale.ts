/**
 * `npm run bench -- --scale` (or `node bin/run-ts.js bench/scale.ts`): how DropQA's costs grow with
 * the corpus on this machine. For each size, a fresh data folder gets generated documents
 * (bench/corpus.ts) ingested offline by the real pipeline, then: ingest time and rate, peak RSS of the
 * process (the server's runtime and its database worker thread), data folder size, search p50 / p95
 * per kind (on a runtime opened afresh, its in-memory BM25 index read back from the snapshot, after
 * the index's load from the database and from its snapshot were timed with their CPU), the first `delta` of an
 * offline answer, and, with the runtime closed, the cold start of `dropqa serve` (until it answers,
 * and until its first full-text search answered) and of `dropqa status` (wall and CPU). Prints a table, writes bench/results/scale-<time>.json and
 * draws the curves into docs/scale.svg (`--svg <path>` elsewhere, `--svg none` not at all).
 *
 * Options: `--sizes 1000,5000,10000` (documents of `--paragraphs 50`), `--small 50000` (documents of
 * 3 paragraphs; 0 leaves them out), `--queries 200` searches per kind, `--keep <dir>` keeps each
 * data folder as `<dir>/scale-<paragraphs>p-<docs>` and, run again, reuses it with the ingest it
 * recorded there (`bench-ingest.json`) instead of ingesting again; `--redraw a.json,b.json` measures
 * nothing and prints the table and draws the curves of the rows in earlier results files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#shared/config/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { syncedMemoryIndex } from '#shared/search/memory-sync.ts';
import { generateDocument, generateQueries } from './corpus.ts';
import { timeIndexLoads } from './index-load.ts';
import { timeCommand, timeServerStart } from './processes.ts';
import { timeAsk } from './qa.ts';
import { benchSearch } from './search.ts';
import { lineCharts } from './svg-chart.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const SIZES = option('--sizes', '1000,5000,10000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const PARAGRAPHS = Number(option('--paragraphs', '50'));
const SMALL = Number(option('--small', '50000'));
const QUERIES = Number(option('--queries', '200'));
const SVG = option('--svg', join(import.meta.dirname, '..', 'docs', 'scale.svg'));
const KEEP = option('--keep', '');
const REDRAW = option('--redraw', '');

interface Measured {
  corpus: string;
  docs: number;
  paragraphs: number;
  ingestSeconds: number;
  docsPerSecond: number;
  peakRssMb: number;
  dataMb: number;
  search: Record<string, { p50: number; p95: number }>;
  firstDeltaMs: number;
  /** The in-memory BM25 index's load from the database on an opened data folder: wall, and CPU of the process. */
  indexLoadSeconds: number;
  indexLoadCpuSeconds: number;
  /** Its snapshot read back and brought up to date (what a later start does): wall and CPU (absent in older results). */
  snapshotReadSeconds?: number;
  snapshotReadCpuSeconds?: number;
  serverReadySeconds: number;
  /** From starting the server until its first full-text search answered. */
  firstSearchSeconds: number;
  statusSeconds: number;
  statusCpuSeconds?: number;
  /** The one-minute load average when the size was done (the machine may be shared). */
  loadAvg?: number;
}

/** What an ingest into a kept data folder recorded, so a later run can reuse the folder. */
interface IngestRecord {
  docs: number;
  paragraphs: number;
  ingestSeconds: number;
  peakRssMb: number;
  load: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function folderMb(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir]).toString().split(/\s/)[0]) / 1024;
}

async function ingestGenerated(
  rt: Runtime,
  docs: number,
  paragraphs: number,
  label: string,
): Promise<{ total: number; seconds: number }> {
  let total = 0;
  const files = Array.from({ length: docs }, (_, i) => {
    const doc = generateDocument(i, paragraphs);
    total += doc.paragraphs;
    return { key: `bench/${doc.name}`, filename: doc.name, bytes: new TextEncoder().encode(doc.text) };
  });
  process.stderr.write(`${label}: ingesting ${docs} documents (${total} paragraphs)...\n`);
  const started = performance.now();
  let done = 0;
  const outcomes = await rt.ingest.ingest(files, () => {
    done += 1;
    if (done % Math.max(100, Math.floor(docs / 10)) === 0) {
      process.stderr.write(`  ${done}/${docs} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const failed = outcomes.filter((o) => o.status === 'failed');
  if (failed.length)
    throw new Error(`${failed.length} documents failed, e.g. ${failed[0]?.key}: ${failed[0]?.error}`);
  return { total, seconds };
}

async function measure(corpus: string, docs: number, paragraphs: number): Promise<Measured> {
  const dataDir = KEEP
    ? join(KEEP, `scale-${paragraphs}p-${docs}`)
    : mkdtempSync(join(tmpdir(), 'dropqa-bench-scale-'));
  const recordFile = join(dataDir, 'bench-ingest.json');
  mkdirSync(dataDir, { recursive: true });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 200);
  try {
    const rt = await openRuntime(loadConfig({ overrides: { dataDir } }));
    let record: IngestRecord;
    if (existsSync(recordFile)) {
      record = JSON.parse(readFileSync(recordFile, 'utf8')) as IngestRecord;
      process.stderr.write(
        `${corpus}: reusing ${dataDir} (ingested in ${record.ingestSeconds.toFixed(1)} s)\n`,
      );
    } else {
      const { total, seconds } = await ingestGenerated(rt, docs, paragraphs, corpus);
      record = {
        docs,
        paragraphs: total,
        ingestSeconds: seconds,
        peakRssMb: peakRss / 2 ** 20,
        load: loadavg()[0] ?? 0,
      };
      if (KEEP) writeFileSync(recordFile, JSON.stringify(record, null, 2));
    }
    // Its snapshot is left in the folder for the searches and the server's start below.
    const loads = await timeIndexLoads(rt);
    await rt.close();
    // Searched on a runtime opened afresh, as after a server's start (the index read back from its
    // snapshot), not on the one that just built the index three times: at 10,000 documents its
    // garbage (~2 GB of heap) put collections into the timed searches (semantic p95 629 ms).
    const live = await openRuntime(loadConfig({ overrides: { dataDir } }));
    await syncedMemoryIndex(live.db);
    const latency = await benchSearch(live.db, live.qa, generateQueries(QUERIES), QUERIES);
    const questions = generateQueries(6, 11).map((q) => `What do the documents say about ${q}?`);
    await timeAsk(live.qa, questions[0] ?? 'report', 'auto');
    const deltas: number[] = [];
    for (const question of questions.slice(1))
      deltas.push((await timeAsk(live.qa, question, 'auto')).firstDelta);
    await live.close();
    clearInterval(sampler);
    const start = await timeServerStart(dataDir);
    const status = await timeCommand(dataDir, ['status']);
    return {
      corpus,
      docs,
      paragraphs: record.paragraphs,
      ingestSeconds: record.ingestSeconds,
      docsPerSecond: docs / record.ingestSeconds,
      peakRssMb: Math.max(record.peakRssMb, peakRss / 2 ** 20),
      dataMb: folderMb(dataDir),
      search: Object.fromEntries(
        Object.entries(latency).map(([kind, s]) => [kind, { p50: s.p50, p95: s.p95 }]),
      ),
      firstDeltaMs: median(deltas),
      indexLoadSeconds: loads.fromDatabase.wall,
      indexLoadCpuSeconds: loads.fromDatabase.cpu,
      snapshotReadSeconds: loads.read.wall,
      snapshotReadCpuSeconds: loads.read.cpu,
      serverReadySeconds: start.ready,
      firstSearchSeconds: start.firstSearch,
      statusSeconds: status.wall,
      statusCpuSeconds: status.cpu,
      loadAvg: loadavg()[0],
    };
  } finally {
    clearInterval(sampler);
    if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
  }
}

const runs: Measured[] = [];
if (REDRAW) {
  // Rows measured by earlier runs (e.g. one size a run on a busy machine), one table and curve.
  for (const file of REDRAW.split(',')) {
    const results = JSON.parse(readFileSync(file, 'utf8')) as { load?: string; runs: Measured[] };
    runs.push(...results.runs.map((r) => ({ loadAvg: Number(results.load), ...r })));
  }
  runs.sort((a, b) => a.corpus.localeCompare(b.corpus) || a.docs - b.docs);
} else {
  for (const size of SIZES) runs.push(await measure(`${PARAGRAPHS} paragraphs`, size, PARAGRAPHS));
  if (SMALL > 0) runs.push(await measure('3 paragraphs', SMALL, 3));
}

const kinds = ['fulltext', 'semantic', 'hybrid'];
const header = [
  'corpus',
  'docs',
  'paragraphs',
  'ingest',
  'docs/s',
  'peak RSS',
  'data folder',
  ...kinds.map((k) => `${k} p50 / p95`),
  'first delta',
  'BM25 index load (CPU)',
  'snapshot read (CPU)',
  'server ready',
  'first full-text search',
  'CLI status (CPU)',
  'load',
];
const table = runs.map((r) => [
  r.corpus,
  String(r.docs),
  String(r.paragraphs),
  `${r.ingestSeconds.toFixed(1)} s`,
  r.docsPerSecond.toFixed(1),
  `${r.peakRssMb.toFixed(0)} MB`,
  `${r.dataMb.toFixed(0)} MB`,
  ...kinds.map((k) => `${r.search[k]?.p50.toFixed(1)} / ${r.search[k]?.p95.toFixed(1)} ms`),
  `${r.firstDeltaMs.toFixed(0)} ms`,
  `${r.indexLoadSeconds.toFixed(1)} s (${r.indexLoadCpuSeconds.toFixed(1)} s)`,
  r.snapshotReadSeconds === undefined
    ? '-'
    : `${r.snapshotReadSeconds.toFixed(2)} s (${r.snapshotReadCpuSeconds?.toFixed(2)} s)`,
  `${r.serverReadySeconds.toFixed(2)} s`,
  `${r.firstSearchSeconds.toFixed(2)} s`,
  `${r.statusSeconds.toFixed(2)} s${r.statusCpuSeconds === undefined ? '' : ` (${r.statusCpuSeconds.toFixed(2)} s)`}`,
  r.loadAvg?.toFixed(1) ?? '?',
]);
const load = loadavg()[0]?.toFixed(1);
process.stdout.write(
  `\nDropQA at scale, offline providers (${cpus().length} cores, ${REDRAW ? 'rows of earlier runs' : `load ${load} at the end`})\n\n`,
);
process.stdout.write(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n`);
for (const row of table) process.stdout.write(`| ${row.join(' | ')} |\n`);
const base = runs.find((r) => r.corpus === `${PARAGRAPHS} paragraphs`);
const largest = runs.filter((r) => r.corpus === base?.corpus).at(-1);
if (base && largest && largest !== base) {
  process.stdout.write(
    `\ningest rate at ${largest.docs} documents: ${((100 * largest.docsPerSecond) / base.docsPerSecond).toFixed(0)}% of the rate at ${base.docs}\n`,
  );
}

if (!REDRAW) {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const resultsDir = join(import.meta.dirname, 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, `scale-${stamp}.json`), JSON.stringify({ load, runs }, null, 2));
}
const curve = runs.filter((r) => r.corpus === base?.corpus);
if (SVG !== 'none' && curve.length >= 2) {
  const at = (pick: (r: Measured) => number): [number, number][] => curve.map((r) => [r.docs, pick(r)]);
  writeFileSync(
    SVG,
    lineCharts(
      [
        {
          title: 'Ingest time',
          unit: 's',
          series: [{ name: 'ingest', points: at((r) => r.ingestSeconds) }],
        },
        {
          title: 'Search p95, first answer delta',
          unit: 'ms',
          series: [
            ...kinds.map((k) => ({ name: k, points: at((r) => r.search[k]?.p95 ?? 0) })),
            { name: 'first delta (median)', points: at((r) => r.firstDeltaMs) },
          ],
        },
        {
          title: 'Peak RSS and data folder',
          unit: 'MB',
          series: [
            { name: 'peak RSS', points: at((r) => r.peakRssMb) },
            { name: 'data folder', points: at((r) => r.dataMb) },
          ],
        },
        {
          title: 'Cold start',
          unit: 's',
          series: [
            { name: 'server ready', points: at((r) => r.serverReadySeconds) },
            { name: 'first full-text search', points: at((r) => r.firstSearchSeconds) },
            { name: 'BM25 index load', points: at((r) => r.indexLoadSeconds) },
            { name: 'BM25 snapshot read', points: at((r) => r.snapshotReadSeconds ?? 0) },
            { name: 'CLI status', points: at((r) => r.statusSeconds) },
          ],
        },
      ],
      `documents of ${PARAGRAPHS} paragraphs (x axis); bench/scale.ts, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, load ${curve.map((r) => r.loadAvg?.toFixed(0) ?? '?').join(' / ')}`,
    ),
  );
  process.stdout.write(`curves drawn into ${SVG}\n`);
}
process.exit(0);
