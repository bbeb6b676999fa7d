/**
 * `npm run eval [-- [set ...] [--kinds fulltext,semantic,hybrid] [--limit N] [--data <dir>]
 * [--baseline <json>] [--no-conversation]]`: measures retrieval on every dev set (default
 * `scifact-train`, `cmrc2018-trial`, `domainrag-dev` from ../shared/eval, or `DROPQA_EVAL_DIR`; a set
 * may also be a path to any BEIR folder), then the conversation mode (the offline rewriter on
 * `rewrite-zh`, and retrieval on two-turn conversations built from each set's queries where at
 * least 10 can be: `buildConversations`). Each set's
 * corpus is ingested through the real pipeline into a fresh temporary data folder (or
 * `<--data>/<set>`, kept and reused), its queries go through `search` for each kind. Prints nDCG@10,
 * Recall@100, MRR@10, Hits@10, latency and ingest speed per set, the bootstrap noise of each mean,
 * and with `--baseline` (a JSON an earlier run wrote) a before/after table whose verdict says where a
 * set fell or rose by more than twice its noise. A set without qrels whose queries carry `answers`
 * (`answers-zh`, `answers-en`) is an answers set: its questions are asked (mode `auto`) and scored by
 * the gold answer in the answer, within 200 characters after the leading notice, and the median length
 * (`./eval/answers.ts`). A set with a `tables/` folder (`tables-en`) is a table set: each question is
 * asked over its table's document alone and scored by every gold answer as a whole token within 300
 * characters after the notice (`./eval/tables.ts`). Writes bench/results/eval-<time>.json.
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '#shared/config/index.ts';
import { resolveFollowUp } from '#shared/qa/conversation/follow-up.ts';
import { type AnswerScore, isAnswerSet, loadAnswerSet, scoreAnswers } from './eval/answers.ts';
import { loadBeirSet } from './eval/beir.ts';
import { type Comparison, compare, meanNoise, pairedNoise } from './eval/compare.ts';
import { buildConversations, type ConversationScore, scoreConversations } from './eval/conversations.ts';
import { loadRewriteSet, scoreRewrites } from './eval/rewrite-set.ts';
import { EVAL_KINDS, type EvalKind, type EvalResult, runEval } from './eval/run.ts';
import { isTableSet, loadTableSet, scoreTables, type TableScore } from './eval/tables.ts';

const DEFAULT_SETS = ['scifact-train', 'cmrc2018-trial', 'domainrag-dev'];
/** Fewer conversations than this (a set whose queries name no title and hold no 的) are not scored. */
const MIN_CONVERSATIONS = 10;
const usage =
  'usage: npm run eval -- [set or BEIR dir ...] [--kinds fulltext,semantic,hybrid] [--limit N] [--data <dir>] [--baseline <json>] [--no-conversation]\n' +
  `  sets: a folder name under DROPQA_EVAL_DIR (default ../shared/eval) or a path; default: ${DEFAULT_SETS.join(' ')};\n` +
  '  an answers set (answers-zh, answers-en) is scored by asking its questions;\n' +
  '  a table set (tables-en) by asking each question over its table alone.';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    kinds: { type: 'string' },
    limit: { type: 'string' },
    data: { type: 'string' },
    baseline: { type: 'string' },
    'no-conversation': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const fail = (message: string): never => {
  console.error(`${message}\n${usage}`);
  process.exit(2);
};
const kinds = (values.kinds ?? EVAL_KINDS.join(',')).split(',').map((k) => k.trim()) as EvalKind[];
const unknown = kinds.filter((k) => !(EVAL_KINDS as readonly string[]).includes(k));
if (unknown.length) fail(`unknown kind(s) ${unknown.join(', ')}; known: ${EVAL_KINDS.join(', ')}`);
const limit = values.limit === undefined ? undefined : Number(values.limit);
if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
  fail('--limit must be a positive integer');
const evalRoot = resolve(process.env.DROPQA_EVAL_DIR ?? join(import.meta.dirname, '../../shared/eval'));
const setDirs = (positionals.length ? positionals : DEFAULT_SETS).map((set) =>
  existsSync(set) ? resolve(set) : join(evalRoot, set),
);
for (const dir of setDirs)
  if (!existsSync(dir)) fail(`no set at ${dir} (set DROPQA_EVAL_DIR or give a path)`);
const baseline = values.baseline ? readBaseline(resolve(values.baseline)) : undefined;

const results: EvalResult[] = [];
const conversations: ConversationScore[] = [];
const answers: AnswerScore[] = [];
const tables: TableScore[] = [];
for (const dir of setDirs) {
  if (isTableSet(dir)) {
    tables.push(await scoreTableSet(dir));
    continue;
  }
  const answerSet = isAnswerSet(dir) ? loadAnswerSet(dir) : undefined;
  const set = answerSet ?? loadBeirSet(dir);
  if (limit !== undefined) set.queries = set.queries.slice(0, limit);
  const dataDir = values.data
    ? join(resolve(values.data), set.name)
    : mkdtempSync(join(tmpdir(), 'dropqa-eval-'));
  const config = loadConfig({ overrides: { dataDir } });
  const built = values['no-conversation'] || answerSet ? [] : buildConversations(set);
  try {
    const result = await runEval(
      set,
      config,
      answerSet ? [] : kinds,
      progressBar(set.name),
      async (ingested) => {
        if (answerSet) answers.push(await scoreAnswers(answerSet, ingested, progressBar(set.name)));
        if (built.length >= MIN_CONVERSATIONS)
          conversations.push(await scoreConversations(set, ingested, built));
      },
    );
    if (!answerSet) results.push(result);
  } finally {
    process.stderr.write('\n');
    if (!values.data) rmSync(dataDir, { recursive: true, force: true });
  }
}
const rewrite =
  values['no-conversation'] || !existsSync(join(evalRoot, 'rewrite-zh'))
    ? undefined
    : scoreRewrites(loadRewriteSet(join(evalRoot, 'rewrite-zh')), resolveFollowUp);

const f3 = (x: number) => x.toFixed(3);

/** Prints a Markdown table after a blank line: a header row, its rule, one line a row. */
function printTable(header: string[], rows: string[][]): void {
  console.log(`\n| ${header.join(' | ')} |`);
  console.log(`|${'---|'.repeat(header.length)}`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

for (const result of results) {
  const { ingest } = result;
  console.log(`\n${result.set}: ${result.documents} documents, ${result.queries} queries`);
  console.log(`measured with: embedder ${result.providers.embedder}, reranker ${result.providers.reranker}`);
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
  printTable(
    ['kind', 'nDCG@10', '± sd', 'Recall@100', 'MRR@10', 'Hits@10', 'p50 ms', 'p95 ms'],
    result.kinds.map((k) => [
      k.kind,
      f3(k.ndcg10),
      f3(meanNoise(k.perQuery)),
      f3(k.recall100),
      f3(k.mrr10),
      f3(k.hits10),
      k.p50Ms.toFixed(1),
      k.p95Ms.toFixed(1),
    ]),
  );
}

if (conversations.length || rewrite) {
  console.log('\nConversation mode');
  if (rewrite)
    console.log(
      `\nrewrite-zh (${rewrite.dialogues} dialogues, characters added): precision ${f3(rewrite.precision)}, recall ${f3(rewrite.recall)}, F1 ${f3(rewrite.f1)}; ${rewrite.changed} rewritten; offline rewrite p50 / p95 ${rewrite.p50Ms.toFixed(3)} / ${rewrite.p95Ms.toFixed(3)} ms`,
    );
  if (conversations.length) {
    printTable(
      [
        'built from',
        'conversations',
        'follow-up alone',
        'with the conversation',
        'difference ± sd',
        'judged query',
        'rewrite p95 ms',
      ],
      conversations.map((c) => [
        c.set,
        String(c.conversations),
        f3(c.alone),
        f3(c.withConversation),
        `${f3(c.withConversation - c.alone)} ± ${f3(pairedNoise(c.perAlone, c.perWith))}`,
        f3(c.original),
        c.rewriteP95Ms.toFixed(3),
      ]),
    );
    printTable(
      [
        'built from',
        'third turns (a follow-up on the same subject before)',
        'after the first turn',
        'after both',
      ],
      conversations.map((c) => [
        c.set,
        String(c.chained.conversations),
        f3(c.chained.afterOneTurn),
        f3(c.chained.afterTwoTurns),
      ]),
    );
  }
}

if (answers.length) {
  console.log('\nAnswers (mode auto)');
  printTable(
    [
      'set',
      'questions',
      'gold in answer',
      'within 200 chars after the notice',
      'median chars',
      'median after the notice',
      'p95 ms',
    ],
    answers.map((a) => [
      a.set,
      String(a.questions),
      f3(a.answered),
      f3(a.early),
      String(a.medianChars),
      String(a.medianBodyChars),
      a.p95Ms.toFixed(0),
    ]),
  );
}

if (tables.length) {
  console.log('\nTables (mode auto, each question over its table alone)');
  printTable(
    ['set', 'questions', 'tables (failed)', 'every gold answer in the first 300 chars', 'p50 ms', 'p95 ms'],
    tables.map((t) => [
      t.set,
      String(t.questions),
      `${t.tables} (${t.failedTables})`,
      f3(t.answered),
      t.p50Ms.toFixed(0),
      t.p95Ms.toFixed(0),
    ]),
  );
}

const comparisons: Comparison[] = [];
if (baseline) {
  for (const result of results)
    for (const k of result.kinds) {
      const before = baseline.get(`${result.set}\n${k.kind}`);
      if (!before) continue;
      const after = new Map(result.queryIds.map((id, i) => [id, k.perQuery[i] ?? 0]));
      comparisons.push(compare(result.set, k.kind, before, after));
    }
  console.log(`\nBefore (${values.baseline}) and after, nDCG@10 on the queries both measured:\n`);
  console.log('| set | kind | before | after | difference | ± sd (paired bootstrap) | verdict |');
  console.log('|---|---|---|---|---|---|---|');
  for (const c of comparisons)
    console.log(
      `| ${c.set} | ${c.kind} | ${f3(c.before)} | ${f3(c.after)} | ${c.after - c.before >= 0 ? '+' : ''}${f3(c.after - c.before)} | ${f3(c.noise)} | ${c.verdict === 'fell' ? '**fell beyond noise**' : c.verdict} |`,
    );
}

mkdirSync('bench/results', { recursive: true });
const file = join('bench/results', `eval-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
const config = loadConfig({});
writeFileSync(
  file,
  `${JSON.stringify({ node: process.version, config: config.search, results, conversations, rewrite, answers, tables, comparisons }, null, 2)}\n`,
);
console.log(`\nwritten to ${file} (pass it as --baseline to compare a later run)`);
if (comparisons.some((c) => c.verdict === 'fell')) process.exitCode = 1;

/** Scores a table set (`./eval/tables.ts`) in its own data folder (kept under `--data`). */
async function scoreTableSet(dir: string): Promise<TableScore> {
  const set = loadTableSet(dir);
  if (limit !== undefined) set.queries = set.queries.slice(0, limit);
  const dataDir = values.data
    ? join(resolve(values.data), set.name)
    : mkdtempSync(join(tmpdir(), 'dropqa-eval-'));
  try {
    return await scoreTables(set, loadConfig({ overrides: { dataDir } }), progressBar(set.name));
  } finally {
    process.stderr.write('\n');
    if (!values.data) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Per set and kind, per-query nDCG@10 of an earlier run's JSON (this command's, or one set's of the older form). */
function readBaseline(path: string): Map<string, Map<string, number>> {
  let json: { results?: EvalResult[] } & Partial<EvalResult>;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return fail(`--baseline ${path}: ${(error as Error).message}`);
  }
  const runs = json.results ?? (json.kinds ? [json as EvalResult] : []);
  const out = new Map<string, Map<string, number>>();
  for (const run of runs)
    for (const k of run.kinds ?? []) {
      if (!run.queryIds || !k.perQuery) continue;
      out.set(`${run.set}\n${k.kind}`, new Map(run.queryIds.map((id, i) => [id, k.perQuery[i] ?? 0])));
    }
  if (out.size === 0) fail(`--baseline ${path}: no per-query scores (written by an older eval?)`);
  return out;
}

/** A one-line bar on a terminal, a line per 10% otherwise. */
function progressBar(name: string) {
  const tty = Boolean(process.stderr.isTTY);
  let lastDecile = -1;
  let lastPhase = '';
  return (done: number, total: number, phase: string) => {
    if (tty) {
      const width = 30;
      const filled = total ? Math.round((done / total) * width) : width;
      process.stderr.write(
        `\r\u001b[2K${name} ${phase.padEnd(9)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`,
      );
      return;
    }
    const decile = total ? Math.floor((done / total) * 10) : 10;
    if (phase === lastPhase && decile === lastDecile) return;
    lastPhase = phase;
    lastDecile = decile;
    process.stderr.write(`${name} ${phase} ${done}/${total}\n`);
  };
}
