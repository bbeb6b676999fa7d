/**
 * `node bin/run-ts.js bench/eval-tune.ts <BEIR set dir> --data <dir> [--limit N]`: the tables that
 * chose the search defaults. On a data folder `npm run eval -- <set> --data <dir>` has ingested, it
 * measures nDCG@10 over grids of BM25 k1 x b, idf exponent x title weight, pseudo-relevance feedback
 * (full-text), of hybrid semantic weights and of the title coverage weight (`--grids title`), each through the product's own ranking functions with
 * only those parameters changed (the k1 x b grid without feedback). Prints Markdown tables.
 */

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { loadConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import { openRuntime } from '#shared/runtime/runtime.ts';
import { fuseScores } from '#shared/search/fusion.ts';
import { cosineSimilarities, embedQuery, rankFulltext, rankSemantic } from '#shared/search/index.ts';
import type { RankedNode, SearchDeps } from '#shared/search/types.ts';
import { loadBeirSet } from './eval/beir.ts';
import { meanMetrics, queryMetrics } from './eval/metrics.ts';

const DEPTH = 300;
const K1 = [0.6, 0.9, 1.2, 1.5, 2.0];
const B = [0.3, 0.4, 0.5, 0.6, 0.75, 0.9];
const WEIGHTS = [0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1];
/** Cosine floors in standard deviations above the candidates' mean; -Infinity is plain min-max. */
const FLOORS = [Number.NEGATIVE_INFINITY, 0, 1, 1.5, 2, 2.5, 3];
const GRIDS = ['bm25', 'idf', 'feedback', 'hybrid', 'title'] as const;
const COVERAGE = [0, 0.25, 0.5, 1, 2];
const EXPONENTS = [1, 1.25, 1.5, 2];
const TITLE_WEIGHTS = [1, 1.5, 2, 3];
const FEEDBACK = [
  { documents: 0, terms: 20, originalWeight: 0.7 },
  { documents: 3, terms: 20, originalWeight: 0.7 },
  { documents: 5, terms: 10, originalWeight: 0.7 },
  { documents: 5, terms: 20, originalWeight: 0.5 },
  { documents: 5, terms: 20, originalWeight: 0.7 },
  { documents: 10, terms: 20, originalWeight: 0.7 },
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { data: { type: 'string' }, limit: { type: 'string' }, grids: { type: 'string' } },
});
const [dir] = positionals;
if (!dir || !values.data) {
  console.error(
    `usage: node bin/run-ts.js bench/eval-tune.ts <set dir> --data <ingested data dir> [--limit N] [--grids ${GRIDS.join(',')}]`,
  );
  process.exit(2);
}
const grids = new Set((values.grids ?? GRIDS.join(',')).split(',').map((g) => g.trim()));
const set = loadBeirSet(resolve(dir));
const queries = set.queries
  .filter((q) => q.text.trim())
  .slice(0, values.limit ? Number(values.limit) : undefined);
const config = loadConfig({ overrides: { dataDir: resolve(values.data) } });
const rt = await openRuntime(config);
try {
  const rows = await queryRows<{ id: string; key: string }>(
    rt.db,
    sql`SELECT n.id, d.key FROM nodes n JOIN documents d ON d.id = n.document_id WHERE d.deleted_at IS NULL`,
  );
  const docOf = new Map(rows.map((r) => [r.id, r.key.replace(/^eval\/[^/]+\//, '').replace(/\.md$/, '')]));
  const score = (ranked: RankedNode[][]) =>
    meanMetrics(
      ranked.map((list, i) =>
        queryMetrics(
          list.map((n) => docOf.get(n.nodeId) ?? '?'),
          set.qrels.get(queries[i]?.id ?? '') ?? new Map(),
        ),
      ),
    ).ndcg10;
  const defaults = rt.qa.search;
  const withSearch = (
    bm25: Partial<typeof defaults.bm25>,
    feedback: Partial<typeof defaults.feedback> = {},
  ): SearchDeps => ({
    ...rt.qa,
    search: {
      ...defaults,
      bm25: { ...defaults.bm25, ...bm25 },
      feedback: { ...defaults.feedback, ...feedback },
    },
  });
  const fulltextScore = async (deps: SearchDeps) => {
    const lists = [];
    for (const q of queries) lists.push(await rankFulltext(deps, q.text, {}, DEPTH));
    return score(lists).toFixed(3);
  };

  if (grids.has('bm25')) await bm25Grid();
  if (grids.has('idf')) await idfGrid();
  if (grids.has('feedback')) await feedbackGrid();
  if (grids.has('hybrid')) await hybridGrid();
  if (grids.has('title')) await titleGrid();

  /** Full-text by `search.bm25.titleCoverage`, each weight's queries up / down against weight 0. */
  async function titleGrid() {
    console.log(`\n${set.name}: full-text nDCG@10 by title coverage weight (queries up / down against 0)\n`);
    console.log(`| weight | ${COVERAGE.join(' | ')} |`);
    console.log(`|---|${COVERAGE.map(() => '---').join('|')}|`);
    const cells: string[] = [];
    let base: number[] | undefined;
    for (const titleCoverage of COVERAGE) {
      const deps = withSearch({ titleCoverage });
      const per: number[] = [];
      for (const q of queries) {
        const ranked = (await rankFulltext(deps, q.text, {}, DEPTH)).map((n) => docOf.get(n.nodeId) ?? '?');
        per.push(queryMetrics(ranked, set.qrels.get(q.id) ?? new Map()).ndcg10);
      }
      const before = base ?? per;
      base = before;
      const up = per.filter((v, i) => v > (before[i] ?? 0) + 1e-9).length;
      const down = per.filter((v, i) => v < (before[i] ?? 0) - 1e-9).length;
      cells.push(`${(per.reduce((a, b) => a + b, 0) / per.length).toFixed(4)} (+${up}/-${down})`);
    }
    console.log(`| nDCG@10 | ${cells.join(' | ')} |`);
  }

  async function bm25Grid() {
    console.log(`\n${set.name}: full-text nDCG@10 by k1 (rows) and b (columns), ${queries.length} queries\n`);
    console.log(`| k1 \\ b | ${B.join(' | ')} |`);
    console.log(`|---|${B.map(() => '---').join('|')}|`);
    for (const k1 of K1) {
      const cells: string[] = [];
      for (const b of B) cells.push(await fulltextScore(withSearch({ k1, b }, { documents: 0 })));
      console.log(`| ${k1} | ${cells.join(' | ')} |`);
    }
  }

  async function idfGrid() {
    console.log(
      `\n${set.name}: full-text nDCG@10 by idf exponent (rows) and title weight (columns), no feedback\n`,
    );
    console.log(`| exponent \\ title | ${TITLE_WEIGHTS.join(' | ')} |`);
    console.log(`|---|${TITLE_WEIGHTS.map(() => '---').join('|')}|`);
    for (const idfExponent of EXPONENTS) {
      const cells: string[] = [];
      for (const titleWeight of TITLE_WEIGHTS)
        cells.push(await fulltextScore(withSearch({ idfExponent, titleWeight }, { documents: 0 })));
      console.log(`| ${idfExponent} | ${cells.join(' | ')} |`);
    }
  }

  async function feedbackGrid() {
    console.log(
      `\n${set.name}: full-text nDCG@10 by pseudo-relevance feedback (documents / terms / original weight)\n`,
    );
    console.log('| feedback | nDCG@10 |\n|---|---|');
    for (const feedback of FEEDBACK)
      console.log(
        `| ${feedback.documents ? `${feedback.documents} / ${feedback.terms} / ${feedback.originalWeight}` : 'off'} | ${await fulltextScore(withSearch({}, feedback))} |`,
      );
  }

  async function hybridGrid() {
    const { k1, b } = rt.qa.search.bm25;
    const sides: { fulltext: RankedNode[]; semantic: RankedNode[]; cosine: Map<string, number> }[] = [];
    for (const q of queries) {
      const fulltext = await rankFulltext(rt.qa, q.text, {}, DEPTH);
      const semantic = await rankSemantic(rt.qa, q.text, {}, DEPTH);
      const cosine = new Map(semantic.map((h) => [h.nodeId, h.score]));
      const missing = fulltext.filter((h) => !cosine.has(h.nodeId)).map((h) => h.nodeId);
      const vector = await embedQuery(rt.qa.embedder, q.text);
      for (const [id, c] of await cosineSimilarities(rt.db, rt.qa.embedder, vector, missing))
        cosine.set(id, c);
      const kept = semantic.filter((h) => h.score >= rt.qa.search.minSemanticScore);
      sides.push({ fulltext, semantic: kept, cosine });
    }
    console.log(
      `\n${set.name}: hybrid nDCG@10 by cosine floor (rows, standard deviations above the candidates' mean; -Infinity: min-max) and semantic weight (columns), k1 ${k1}, b ${b}, embedder ${rt.qa.embedder.model}; full-text ${score(sides.map((s) => s.fulltext)).toFixed(3)}\n`,
    );
    console.log(`| floor \\ weight | ${WEIGHTS.join(' | ')} |`);
    console.log(`|---|${WEIGHTS.map(() => '---').join('|')}|`);
    for (const cosineFloorZ of FLOORS) {
      const cells = WEIGHTS.map((semanticWeight) =>
        score(
          sides.map((s) => fuseScores(s.fulltext, s.semantic, s.cosine, { semanticWeight, cosineFloorZ })),
        ).toFixed(4),
      );
      console.log(`| ${cosineFloorZ} | ${cells.join(' | ')} |`);
    }
  }
} finally {
  await rt.close();
}
