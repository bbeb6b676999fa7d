/**
 * `npm run eval -- <BEIR set dir> [--kinds fulltext,semantic,hybrid] [--limit N] [--data <dir>]`:
 * ingests the set's corpus through the real pipeline (into a fresh temporary data folder, or
 * `--data`, kept and reused by later runs), runs its queries through `search` for each kind, prints
 * nDCG@10, Recall@100, MRR@10, Hits@10, p50/p95 latency and ingest speed, and writes the same as
 * JSON to bench/results/eval-<set>-<time>.json. `--limit N` measures the first N judged queries.
 * The configuration (file, DROPQA_* variables) applies, so a configured embedder is measured too.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '#shared/config/index.ts';
import { loadBeirSet } from './eval/beir.ts';
import { EVAL_KINDS, type EvalKind, type EvalResult, runEval } from './eval/run.ts';

const usage =
  'usage: npm run eval -- <set dir> [--kinds fulltext,semantic,hybrid] [--limit N] [--data <dir>]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { kinds: { type: 'string' }, limit: { type: 'string' }, data: { type: 'string' } },
});
const [dir] = positionals;
if (!dir) {
  console.error(usage);
  process.exit(2);
}
const kinds = (values.kinds ?? EVAL_KINDS.join(',')).split(',').map((k) => k.trim()) as EvalKind[];
const unknown = kinds.filter((k) => !(EVAL_KINDS as readonly string[]).includes(k));
if (unknown.length) {
  console.error(`unknown kind(s) ${unknown.join(', ')}; known: ${EVAL_KINDS.join(', ')}\n${usage}`);
  process.exit(2);
}
const limit = values.limit === undefined ? undefined : Number(values.limit);
if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
  console.error(`--limit must be a positive integer\n${usage}`);
  process.exit(2);
}

const set = loadBeirSet(resolve(dir));
if (limit !== undefined) set.queries = set.queries.slice(0, limit);
const dataDir = values.data ? resolve(values.data) : mkdtempSync(join(tmpdir(), 'dropqa-eval-'));
const config = loadConfig({ overrides: { dataDir } });

const bar = progressBar();
let result: EvalResult;
try {
  result = await runEval(set, config, kinds, bar);
} finally {
  process.stderr.write('\n');
  if (!values.data) rmSync(dataDir, { recursive: true, force: true });
}

const f3 = (x: number) => x.toFixed(3);
console.log(`\n${result.set}: ${result.documents} documents, ${result.queries} queries`);
const { ingest } = result;
console.log(
  `ingest: ${ingest.ingested} new in ${ingest.seconds.toFixed(1)} s` +
    (ingest.docsPerSecond ? ` (${ingest.docsPerSecond.toFixed(1)} docs/s)` : '') +
    `, ${ingest.documents} ready, ${ingest.failed} failed`,
);
if (ingest.ingested > 0) {
  const steps = Object.entries(ingest.steps).map(
    ([step, s]) => `${step} ${((s.seconds / s.count) * 1000).toFixed(0)} ms`,
  );
  console.log(
    `  storing/registering ${ingest.submitSeconds.toFixed(1)} s; mean per step: ${steps.join(', ')}`,
  );
}
console.log('');
console.log('| kind | nDCG@10 | Recall@100 | MRR@10 | Hits@10 | p50 ms | p95 ms |');
console.log('|---|---|---|---|---|---|---|');
for (const k of result.kinds)
  console.log(
    `| ${k.kind} | ${f3(k.ndcg10)} | ${f3(k.recall100)} | ${f3(k.mrr10)} | ${f3(k.hits10)} | ${k.p50Ms.toFixed(1)} | ${k.p95Ms.toFixed(1)} |`,
  );
mkdirSync('bench/results', { recursive: true });
const file = join(
  'bench/results',
  `eval-${result.set}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
);
writeFileSync(
  file,
  `${JSON.stringify({ ...result, node: process.version, config: config.search }, null, 2)}\n`,
);
console.log(`\nwritten to ${file}`);

/** A one-line bar on a terminal, a line per 10% otherwise. */
function progressBar() {
  const tty = Boolean(process.stderr.isTTY);
  let lastDecile = -1;
  let lastPhase = '';
  return (done: number, total: number, phase: string) => {
    if (tty) {
      const width = 30;
      const filled = total ? Math.round((done / total) * width) : width;
      process.stderr.write(
        `\r\u001b[2K${phase.padEnd(9)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`,
      );
      return;
    }
    const decile = total ? Math.floor((done / total) * 10) : 10;
    if (phase === lastPhase && decile === lastDecile) return;
    lastPhase = phase;
    lastDecile = decile;
    process.stderr.write(`${phase} ${done}/${total}\n`);
  };
}
