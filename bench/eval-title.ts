/**
 * `node bin/run-ts.js bench/eval-title.ts <BEIR set dir> --data <dir> [--weight 1] [--worst 15 | --best N]`:
 * what title coverage (`search.bm25.titleCoverage`) does to a set query by query. On a data folder
 * `npm run eval -- <set> --data <dir>` has ingested, it ranks every query through the product's
 * `rankFulltext` at weight 0 and at `--weight`, and prints
 * - the queries up / down and the mean change of nDCG@10;
 * - over all queries, at weight 0: for the first relevant leaf and the non-relevant leaves ranked
 *   above it, the share of the query's worth the leaf holds, the share its title holds (the eighth
 *   round's coverage) and how much of that the leaf's text holds too (what BM25 already counts),
 *   and the share of the title's worth the query holds (`titleShare` before squaring);
 * - the queries that fall most (`--best N`: rise most): their relevant documents' ranks before /
 *   after, and the documents put above them, with the query terms their titles hold (`*` when the
 *   leaf's text holds it too).
 * Shares here are over the query's own terms (feedback terms left out), each worth idf^e
 * (docs/quality.md, issue 29, ninth round).
 */

import { parseArgs } from 'node:util';
import { isCharacterGram, searchTerms } from '#shared/index/analyze.ts';
import { bm25TermWeight, termField } from '#shared/search/bm25.ts';
import { queryTerms, rankFulltext } from '#shared/search/fulltext.ts';
import { syncedMemoryIndex } from '#shared/search/memory-sync.ts';
import type { RankedNode, SearchDeps } from '#shared/search/types.ts';
import { openIngestedSet } from './eval/leaf-texts.ts';
import { queryMetrics } from './eval/metrics.ts';

const DEPTH = 300;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    data: { type: 'string' },
    weight: { type: 'string' },
    worst: { type: 'string' },
    best: { type: 'string' },
  },
});
const [dir] = positionals;
if (!dir || !values.data) {
  console.error(
    'usage: node bin/run-ts.js bench/eval-title.ts <set dir> --data <ingested data dir> [--weight 1] [--worst 15 | --best N]',
  );
  process.exit(2);
}
const weight = Number(values.weight ?? 1);
const { set, queries, rt, leaves } = await openIngestedSet(dir, values.data);
try {
  const leafById = new Map(leaves.map((leaf) => [leaf.id, leaf]));
  const pathTerms = new Map<string, Set<string>>();
  const textTerms = new Map<string, Set<string>>();
  const termsOf = (cache: Map<string, Set<string>>, id: string, text: string) => {
    let held = cache.get(id);
    if (!held) {
      held = new Set(searchTerms(text));
      cache.set(id, held);
    }
    return held;
  };
  const index = await syncedMemoryIndex(rt.db);
  const params = rt.qa.search.bm25;
  const n = index.size();
  const deps = (titleCoverage: number): SearchDeps => ({
    ...rt.qa,
    search: { ...rt.qa.search, bm25: { ...params, titleCoverage } },
  });
  const judged = (id: string) => set.qrels.get(id) ?? new Map<string, number>();
  const docsOf = (ranked: RankedNode[]) => ranked.map((h) => leafById.get(h.nodeId)?.docId ?? '?');

  const before: RankedNode[][] = [];
  const after: RankedNode[][] = [];
  for (const q of queries) {
    before.push(await rankFulltext(deps(0), q.text, {}, DEPTH));
    after.push(await rankFulltext(deps(weight), q.text, {}, DEPTH));
  }

  /** The query's terms with their worth, and a leaf's coverage split by whether its text holds the term too. */
  const worths = (text: string) => {
    const terms = queryTerms(text).map((t) => t.term);
    const df = index.documentFrequencies(terms);
    return terms
      .filter((term) => (df.get(term) ?? 0) > 0)
      .map((term) => {
        const { params: p } = termField(term, params);
        return { term, worth: bm25TermWeight(n, df.get(term) ?? 0, p) };
      });
  };
  const coverage = (leafId: string, terms: { term: string; worth: number }[]) => {
    const leaf = leafById.get(leafId);
    const total = terms.reduce((s, t) => s + t.worth, 0) || 1;
    if (!leaf) return { all: 0, alsoText: 0, titleOnly: 0, matched: 0, recall: 0 };
    const path = termsOf(pathTerms, leaf.id, leaf.path);
    const text = termsOf(textTerms, leaf.id, `${leaf.content}\n${leaf.context}`);
    let all = 0;
    let alsoText = 0;
    let matched = 0;
    const titleTerms = [...path];
    const titleDf = index.documentFrequencies(titleTerms);
    const asked = new Set(terms.map((t) => t.term));
    let titleWorth = 0;
    let askedWorth = 0;
    for (const term of titleTerms) {
      const w = bm25TermWeight(n, titleDf.get(term) ?? 0, termField(term, params).params);
      titleWorth += w;
      if (asked.has(term)) askedWorth += w;
    }
    for (const { term, worth } of terms) {
      if (path.has(term) || text.has(term)) matched += worth;
      if (!path.has(term)) continue;
      all += worth;
      if (text.has(term)) alsoText += worth;
    }
    return {
      all: all / total,
      alsoText: alsoText / total,
      titleOnly: (all - alsoText) / total,
      matched: matched / total,
      recall: titleWorth > 0 ? askedWorth / titleWorth : 0,
    };
  };

  const rows = queries.map((q, i) => {
    const nb = queryMetrics(docsOf(before[i] ?? []), judged(q.id)).ndcg10;
    const na = queryMetrics(docsOf(after[i] ?? []), judged(q.id)).ndcg10;
    return { q, i, nb, na, diff: na - nb };
  });
  const up = rows.filter((r) => r.diff > 1e-9).length;
  const down = rows.filter((r) => r.diff < -1e-9).length;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  console.log(
    `\n${set.name}: ${queries.length} queries, ${leaves.length} leaves; full-text nDCG@10 at weight 0 ${mean(rows.map((r) => r.nb)).toFixed(4)}, at ${weight} ${mean(rows.map((r) => r.na)).toFixed(4)} (+${up} / -${down})`,
  );

  // Over all queries at weight 0: the first relevant leaf against the non-relevant leaves above it.
  const relevantCov: ReturnType<typeof coverage>[] = [];
  const aboveCov: ReturnType<typeof coverage>[] = [];
  for (const { q, i } of rows) {
    const terms = worths(q.text);
    const ranked = before[i] ?? [];
    const at = ranked.findIndex((h) => (judged(q.id).get(leafById.get(h.nodeId)?.docId ?? '') ?? 0) > 0);
    if (at <= 0) continue;
    relevantCov.push(coverage(ranked[at]?.nodeId ?? '', terms));
    for (const h of ranked.slice(0, Math.min(at, 10))) aboveCov.push(coverage(h.nodeId, terms));
  }
  const line = (name: string, list: ReturnType<typeof coverage>[]) =>
    console.log(
      `| ${name} | ${list.length} | ${mean(list.map((c) => c.matched)).toFixed(3)} | ${mean(list.map((c) => c.all)).toFixed(3)} | ${mean(list.map((c) => c.alsoText)).toFixed(3)} | ${mean(list.map((c) => c.titleOnly)).toFixed(3)} | ${mean(list.map((c) => c.recall)).toFixed(3)} | ${mean(list.map((c) => c.recall ** 2)).toFixed(3)} | ${(list.filter((c) => c.recall > 0.999).length / Math.max(1, list.length)).toFixed(3)} |`,
    );
  console.log(
    '\nWhere a relevant leaf is not first at weight 0 (shares of the query worth):\n\n| leaves | count | matched | title coverage | of it also in the text | title only | title recall | its square | title held whole |\n|---|---|---|---|---|---|---|---|---|',
  );
  line('first relevant leaf', relevantCov);
  line('non-relevant above it (top 10)', aboveCov);

  const best = Number(values.best ?? 0);
  const worst = best
    ? [...rows].sort((a, b) => b.diff - a.diff).slice(0, best)
    : [...rows].sort((a, b) => a.diff - b.diff).slice(0, Number(values.worst ?? 15));
  console.log(`\nThe queries that ${best ? 'rise' : 'fall'} most (weight 0 -> ${weight}):`);
  const rankOf = (ranked: RankedNode[], doc: string) => {
    const at = [...new Set(docsOf(ranked))].indexOf(doc);
    return at < 0 ? '-' : String(at + 1);
  };
  for (const row of worst) {
    if (best ? row.diff <= 0 : row.diff >= 0) break;
    const terms = worths(row.q.text);
    const total = terms.reduce((s, t) => s + t.worth, 0) || 1;
    console.log(
      `\n${row.q.id} "${row.q.text}" nDCG ${row.nb.toFixed(3)} -> ${row.na.toFixed(3)}\n  terms: ${terms
        .filter((t) => !isCharacterGram(t.term))
        .map((t) => `${t.term} ${((100 * t.worth) / total).toFixed(0)}%`)
        .join(', ')}`,
    );
    const show = (doc: string, tag: string) => {
      const ranked = after[row.i] ?? [];
      const hit = ranked.find((h) => leafById.get(h.nodeId)?.docId === doc);
      const leaf = hit && leafById.get(hit.nodeId);
      const title = set.documents.find((d) => d.id === doc)?.title ?? '';
      const c = hit ? coverage(hit.nodeId, terms) : undefined;
      const path = leaf ? termsOf(pathTerms, leaf.id, leaf.path) : new Set<string>();
      const text = leaf ? termsOf(textTerms, leaf.id, `${leaf.content}\n${leaf.context}`) : new Set<string>();
      const held = terms
        .filter((t) => path.has(t.term) && !isCharacterGram(t.term))
        .map((t) => `${t.term}${text.has(t.term) ? '*' : ''}`);
      console.log(
        `  ${tag} ${doc} ${rankOf(before[row.i] ?? [], doc)} -> ${rankOf(ranked, doc)} cov ${c ? c.all.toFixed(2) : '-'} recall ${c ? c.recall.toFixed(2) : '-'} (title only ${c ? c.titleOnly.toFixed(2) : '-'}) "${title.slice(0, 90)}" [${held.join(' ')}]`,
      );
    };
    for (const doc of judged(row.q.id).keys()) show(doc, 'R');
    const top = [...new Set(docsOf(after[row.i] ?? []))].slice(0, 5);
    for (const doc of top) if (!judged(row.q.id).has(doc)) show(doc, ' ');
  }
} finally {
  await rt.close();
}
