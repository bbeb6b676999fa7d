/**
 * `npm run bench`: ingest throughput for generated Markdown, search latency p50/p95 per kind, and
 * server start time on an existing data folder, and parsing (bench/parse.ts: per-format throughput
 * against each library's raw text extraction, peak memory on a 50 MB workbook, the corpus).
 * Prints a table and writes bench/results/<time>.json.
 * BENCH_DOCS (default 1000) and BENCH_PARAGRAPHS (default 50) size the corpus; BENCH_ONLY=ingest
 * stops after ingest and search (e.g. to compare DROPQA_DATABASE__EMBEDDED__WORKER=false).
 * `--scale` runs bench/scale.ts instead (its options follow it).
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { ALL_COLLECTIONS, readableCollections } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import { openRuntime } from '#shared/runtime/runtime.ts';
import { warmSearchIndex } from '#shared/search/memory-sync.ts';
import { benchAws } from './aws.ts';
import { generateDocument, generateQueries } from './corpus.ts';
import { benchEnrich } from './enrich.ts';
import { benchFollowUp } from './follow-up.ts';
import { benchLifecycle } from './lifecycle.ts';
import { benchParse } from './parse.ts';
import { timeServerStart } from './processes.ts';
import { askRow, askStats, benchQa, benchQuestions } from './qa.ts';
import { benchQaModes } from './qa-modes.ts';
import { benchSearch } from './search.ts';
import { benchTopics } from './topics.ts';
import { benchVersions } from './versions.ts';
import { benchWatch } from './watch.ts';

// `npm run bench -- --scale`: the cost curve over corpus sizes instead (bench/scale.ts, which exits).
if (process.argv.includes('--scale')) await import('./scale.ts');

const DOCS = Number(process.env.BENCH_DOCS ?? 1000);
const PARAGRAPHS = Number(process.env.BENCH_PARAGRAPHS ?? 50);
const SEARCH_ITERATIONS = Number(process.env.BENCH_SEARCH_QUERIES ?? 200);

type Row = { metric: string; value: string; target: string };
const rows: Row[] = [];
const results: Record<string, unknown> = { docs: DOCS, paragraphsPerDoc: PARAGRAPHS, node: process.version };

const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-bench-'));
const config = loadConfig({ overrides: { dataDir } });

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 200);

try {
  const rt = await openRuntime(config);
  const files = Array.from({ length: DOCS }, (_, i) => {
    const doc = generateDocument(i, PARAGRAPHS);
    return {
      key: `bench/${doc.name}`,
      filename: doc.name,
      bytes: new TextEncoder().encode(doc.text),
      paragraphs: doc.paragraphs,
    };
  });
  const totalParagraphs = files.reduce((n, f) => n + f.paragraphs, 0);
  process.stderr.write(`ingesting ${DOCS} documents (${totalParagraphs} paragraphs)...\n`);
  const started = performance.now();
  let done = 0;
  const outcomes = await rt.ingest.ingest(files, () => {
    done += 1;
    if (done % 100 === 0)
      process.stderr.write(`  ${done}/${DOCS} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  });
  const seconds = (performance.now() - started) / 1000;
  const failed = outcomes.filter((o) => o.status === 'failed');
  if (failed.length)
    throw new Error(`${failed.length} documents failed, e.g. ${failed[0]?.key}: ${failed[0]?.error}`);
  results.ingest = {
    seconds,
    docsPerSecond: DOCS / seconds,
    paragraphsPerSecond: totalParagraphs / seconds,
    peakRssMb: peakRss / 2 ** 20,
  };
  rows.push({
    metric: `ingest ${DOCS} docs / ${totalParagraphs} paragraphs`,
    value: `${seconds.toFixed(1)} s`,
    target: '< 120 s (1,000 docs)',
  });
  rows.push({
    metric: 'ingest throughput',
    value: `${(DOCS / seconds).toFixed(1)} docs/s, ${(totalParagraphs / seconds).toFixed(0)} paragraphs/s`,
    target: '',
  });
  rows.push({ metric: 'peak RSS during ingest', value: `${(peakRss / 2 ** 20).toFixed(0)} MB`, target: '' });

  const queries = generateQueries(SEARCH_ITERATIONS);
  const latency = await benchSearch(rt.db, rt.qa, queries, SEARCH_ITERATIONS);
  results.search = latency;
  const targets: Record<string, string> = {
    keyword: '',
    fulltext: 'p95 < 50 ms',
    semantic: 'p95 < 50 ms',
    hybrid: 'p95 < 100 ms',
  };
  for (const [kind, stats] of Object.entries(latency)) {
    rows.push({
      metric: `search ${kind} p50 / p95`,
      value: `${stats.p50.toFixed(1)} / ${stats.p95.toFixed(1)} ms`,
      target: targets[kind] ?? '',
    });
  }
  // A second team: every other document in collection `b`, searched by a reader of `default` only
  // (shared/access: the scope in every query; full text from the memory index's view of the scope).
  await rt.db.execute(sql`UPDATE documents SET collection = 'b' WHERE key ~ ${'[13579][.]md$'}`);
  await warmSearchIndex(rt.db);
  const scoped = await benchSearch(
    rt.db,
    { ...rt.qa, access: readableCollections(['default']) },
    queries,
    SEARCH_ITERATIONS,
  );
  results.searchOneCollection = scoped;
  for (const [kind, stats] of Object.entries(scoped)) {
    rows.push({
      metric: `search ${kind} p50 / p95, one of two collections readable`,
      value: `${stats.p50.toFixed(1)} / ${stats.p95.toFixed(1)} ms`,
      target: targets[kind] ?? '',
    });
  }
  // An offline ask with every collection readable and with one of the two.
  const asks: Record<string, unknown> = {};
  for (const [label, access] of [
    ['all readable', ALL_COLLECTIONS],
    ['one of two collections readable', readableCollections(['default'])],
  ] as const) {
    const stats = await askStats({ ...rt.qa, access }, benchQuestions(), 'standard');
    asks[label] = stats;
    rows.push(askRow(`ask standard offline, ${label}`, stats));
  }
  results.askByScope = asks;
  await rt.db.execute(sql`UPDATE documents SET collection = 'default'`);
  const full = process.env.BENCH_ONLY !== 'ingest';
  if (full) {
    rows.push(...(await benchLifecycle(rt, files, results)));
    rows.push(...(await benchVersions(rt, results)));
    rows.push(...(await benchWatch(rt, results)));
    rows.push(...(await benchQaModes(rt.qa, results)));
    rows.push(...(await benchQa(rt, results)));
    rows.push(...benchFollowUp(results));
  }
  await rt.close();
  if (full) {
    results.startSeconds = (await timeServerStart(dataDir)).ready;
    rows.push({
      metric: '`dropqa serve` until /api/health answers, existing data folder',
      value: `${(results.startSeconds as number).toFixed(2)} s`,
      target: '< 5 s',
    });

    const parse = await benchParse();
    results.parse = parse.results;
    rows.push(...parse.rows);
    const aws = await benchAws();
    results.aws = aws.results;
    rows.push(...aws.rows);
    const enrich = await benchEnrich();
    results.enrich = enrich.results;
    rows.push(...enrich.rows);
    rows.push(...(await benchTopics()).rows);
  }
} finally {
  clearInterval(sampler);
  rmSync(dataDir, { recursive: true, force: true });
}

const width = (key: keyof Row) => Math.max(key.length, ...rows.map((r) => r[key].length));
const line = (r: Row) =>
  `| ${r.metric.padEnd(width('metric'))} | ${r.value.padEnd(width('value'))} | ${r.target.padEnd(width('target'))} |`;
console.log(line({ metric: 'metric', value: 'value', target: 'target' }));
console.log(
  `|${'-'.repeat(width('metric') + 2)}|${'-'.repeat(width('value') + 2)}|${'-'.repeat(width('target') + 2)}|`,
);
for (const r of rows) console.log(line(r));
const resultsDir = join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  join(resultsDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
  JSON.stringify(results, null, 2),
);
process.exit(0);
