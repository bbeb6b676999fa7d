/**
 * `node bin/run-ts.js bench/eval-tune.ts <BEIR set dir> --data <dir> [--limit N]`: the tables that
 * chose the search defaults. On a data folder `npm run eval -- <set> --data <dir>` has ingested, it
 * measures nDCG@10 over a grid of BM25 k1 x b (full-text) and of hybrid semantic weights, each
 * through the product's own ranking functions with only that parameter changed. Prints Markdown tables.
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

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { data: { type: 'string' }, limit: { type: 'string' } },
});
const [dir] = positionals;
if (!dir || !values.data) {
  console.error(
    'usage: node bin/run-ts.js bench/eval-tune.ts <set dir> --data <ingested data dir> [--limit N]',
  );
  process.exit(2);
}
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
  const withBm25 = (k1: number, b: number): SearchDeps => ({
    ...rt.qa,
    search: { ...rt.qa.search, bm25: { ...rt.qa.search.bm25, k1, b } },
  });

  console.log(`\n${set.name}: full-text nDCG@10 by k1 (rows) and b (columns), ${queries.length} queries\n`);
  console.log(`| k1 \\ b | ${B.join(' | ')} |`);
  console.log(`|---|${B.map(() => '---').join('|')}|`);
  for (const k1 of K1) {
    const cells: string[] = [];
    for (const b of B) {
      const lists = [];
      for (const q of queries) lists.push(await rankFulltext(withBm25(k1, b), q.text, {}, DEPTH));
      cells.push(score(lists).toFixed(3));
    }
    console.log(`| ${k1} | ${cells.join(' | ')} |`);
  }

  const { k1, b } = rt.qa.search.bm25;
  const sides: { fulltext: RankedNode[]; semantic: RankedNode[]; cosine: Map<string, number> }[] = [];
  for (const q of queries) {
    const fulltext = await rankFulltext(rt.qa, q.text, {}, DEPTH);
    const semantic = await rankSemantic(rt.qa, q.text, {}, DEPTH);
    const cosine = new Map(semantic.map((h) => [h.nodeId, h.score]));
    const missing = fulltext.filter((h) => !cosine.has(h.nodeId)).map((h) => h.nodeId);
    const vector = await embedQuery(rt.qa.embedder, q.text);
    for (const [id, c] of await cosineSimilarities(rt.db, rt.qa.embedder, vector, missing)) cosine.set(id, c);
    const kept = semantic.filter((h) => h.score >= rt.qa.search.minSemanticScore);
    sides.push({ fulltext, semantic: kept, cosine });
  }
  console.log(
    `\n${set.name}: hybrid nDCG@10 by semantic weight (k1 ${k1}, b ${b}, embedder ${rt.qa.embedder.model})\n`,
  );
  console.log(`| weight | ${WEIGHTS.join(' | ')} |`);
  console.log(`|---|${WEIGHTS.map(() => '---').join('|')}|`);
  const cells = WEIGHTS.map((w) =>
    score(sides.map((s) => fuseScores(s.fulltext, s.semantic, s.cosine, { semanticWeight: w }))).toFixed(3),
  );
  console.log(`| nDCG@10 | ${cells.join(' | ')} |`);
} finally {
  await rt.close();
}
