/**
 * `node bin/run-ts.js bench/eval-diagnose.ts <BEIR set dir> --data <dir> [--worst N]`: why DropQA's
 * full-text search ranks a set as it does, against the plain reference BM25 of
 * `../shared/eval/README.md` (`PlainBm25`). On a data folder `npm run eval -- <set> --data <dir>`
 * has ingested, it prints
 * - nDCG@10 of DropQA's full-text (`rankFulltext`), of the plain BM25, and of DropQA's leaves
 *   re-indexed in memory with one ingredient at a time swapped for the plain one (analysis, BM25
 *   parameters, title weight, asking words): the ingredients that cost or gain;
 * - per query, where the first relevant passage ranks in each, how many queries each wins, and the
 *   queries DropQA loses most on, with the query terms that decided them.
 */

import { parseArgs } from 'node:util';
import { searchTerms } from '#shared/index/analyze.ts';
import type { Bm25Params, QueryTerm } from '#shared/search/bm25.ts';
import { queryTerms, rankFulltext } from '#shared/search/fulltext.ts';
import { Bm25MemoryIndex } from '#shared/search/memory-index.ts';
import { searchableQuery } from '#shared/search/query-text.ts';
import { type LeafText, openIngestedSet } from './eval/leaf-texts.ts';
import { meanMetrics, queryMetrics } from './eval/metrics.ts';
import { cjkNgramTerms, PlainBm25, plainAnalyzer } from './eval/plain-bm25.ts';

const DEPTH = 100;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { data: { type: 'string' }, worst: { type: 'string' } },
});
const [dir] = positionals;
if (!dir || !values.data) {
  console.error(
    'usage: node bin/run-ts.js bench/eval-diagnose.ts <set dir> --data <ingested data dir> [--worst N]',
  );
  process.exit(2);
}
const { set, queries, rt, leaves } = await openIngestedSet(dir, values.data);
try {
  const docOfLeaf = new Map(leaves.map((leaf) => [leaf.id, leaf.docId]));
  const configured = rt.qa.search.bm25;
  const dropqaParams: Bm25Params = {
    k1: configured.k1,
    b: configured.b,
    idfExponent: configured.idfExponent,
    titleWeight: configured.titleWeight,
  };
  const plainParams: Bm25Params = { k1: 0.9, b: 0.4, idfExponent: 1, titleWeight: 1 };
  const reference = plainAnalyzer(set.documents);
  const judged = (i: number) => set.qrels.get(queries[i]?.id ?? '') ?? new Map<string, number>();

  /** Per query: the ranked corpus ids and the query's terms. */
  type Run = { name: string; ranked: string[][] };
  const runs: Run[] = [];

  const dropqa: string[][] = [];
  for (const q of queries)
    dropqa.push(
      (await rankFulltext(rt.qa, q.text, {}, DEPTH * 3)).map((h) => docOfLeaf.get(h.nodeId) ?? '?'),
    );
  runs.push({ name: 'DropQA full-text (as configured)', ranked: dropqa });

  const plain = new PlainBm25(set.documents);
  runs.push({
    name: 'plain BM25 (reference)',
    ranked: queries.map((q) => plain.rank(q.text, DEPTH).map((h) => h.id)),
  });

  const variants: {
    name: string;
    analyze: (text: string) => string[];
    query: (text: string) => QueryTerm[];
    params: Bm25Params;
  }[] = [
    {
      name: 'leaves in memory, DropQA analysis and parameters',
      analyze: searchTerms,
      query: queryTerms,
      params: dropqaParams,
    },
    {
      name: '  with plain parameters (k1 0.9, b 0.4, idf^1, title x1)',
      analyze: searchTerms,
      query: queryTerms,
      params: plainParams,
    },
    {
      name: '  with title weight 1',
      analyze: searchTerms,
      query: queryTerms,
      params: { ...dropqaParams, titleWeight: 1 },
    },
    {
      name: '  with idf exponent 1',
      analyze: searchTerms,
      query: queryTerms,
      params: { ...dropqaParams, idfExponent: 1 },
    },
    { name: '  with b 0.4', analyze: searchTerms, query: queryTerms, params: { ...dropqaParams, b: 0.4 } },
    {
      name: '  with asking words kept',
      analyze: searchTerms,
      query: (text) => weighted(searchTerms(text)),
      params: dropqaParams,
    },
    {
      name: '  with the reference analysis',
      analyze: reference,
      query: (text) => weighted(reference(text)),
      params: dropqaParams,
    },
    {
      name: '  with CJK as character unigrams and bigrams',
      analyze: cjkNgramTerms,
      query: (text) => ngramQuery(text),
      params: dropqaParams,
    },
    {
      name: 'leaves, CJK unigrams and bigrams, plain parameters',
      analyze: cjkNgramTerms,
      query: (text) => ngramQuery(text),
      params: plainParams,
    },
    {
      name: 'leaves, reference analysis, plain parameters',
      analyze: reference,
      query: (text) => weighted(reference(text)),
      params: plainParams,
    },
  ];
  for (const variant of variants) {
    const index = indexLeaves(leaves, variant.analyze);
    runs.push({
      name: variant.name,
      ranked: queries.map((q) =>
        index
          .rank(variant.query(q.text), DEPTH * 3, variant.params)
          .map((h) => docOfLeaf.get(h.nodeId) ?? '?'),
      ),
    });
  }

  console.log(`\n${set.name}: ${queries.length} queries, ${leaves.length} leaves\n`);
  console.log('| ranking | nDCG@10 | MRR@10 | Hits@10 |\n|---|---|---|---|');
  for (const run of runs) {
    const m = meanMetrics(run.ranked.map((ranked, i) => queryMetrics(ranked, judged(i))));
    console.log(`| ${run.name} | ${m.ndcg10.toFixed(3)} | ${m.mrr10.toFixed(3)} | ${m.hits10.toFixed(3)} |`);
  }

  const firstRank = (ranked: string[], i: number) => {
    const at = [...new Set(ranked)].findIndex((id) => judged(i).has(id));
    return at < 0 ? Number.POSITIVE_INFINITY : at + 1;
  };
  const rows = queries.map((q, i) => {
    const d = firstRank(dropqa[i] ?? [], i);
    const p = firstRank(runs[1]?.ranked[i] ?? [], i);
    const nd = queryMetrics(dropqa[i] ?? [], judged(i)).ndcg10;
    const np = queryMetrics(runs[1]?.ranked[i] ?? [], judged(i)).ndcg10;
    return { q, i, d, p, loss: np - nd };
  });
  const wins = rows.filter((r) => r.loss < -1e-9).length;
  const losses = rows.filter((r) => r.loss > 1e-9).length;
  console.log(
    `\nDropQA against plain BM25, query by query (nDCG@10): better on ${wins}, worse on ${losses}, same on ${rows.length - wins - losses}`,
  );
  const worst = rows.sort((a, b) => b.loss - a.loss).slice(0, Number(values.worst ?? 15));
  console.log(
    "\n| query | first relevant: DropQA | plain | DropQA's first hit | its terms |\n|---|---|---|---|---|",
  );
  for (const row of worst) {
    if (row.loss <= 0) break;
    const top = dropqa[row.i]?.[0] ?? '';
    const doc = set.documents.find((d) => d.id === top);
    const terms = queryTerms(row.q.text).map((t) => t.term);
    console.log(
      `| ${row.q.id} ${row.q.text.slice(0, 40)} | ${row.d} | ${row.p} | ${top} ${doc?.title.slice(0, 24) ?? ''} | ${terms.join(' ')} |`,
    );
  }
} finally {
  await rt.close();
}

/** The query's n-gram terms, its asking words left out as `queryTerms` leaves them out. */
function ngramQuery(text: string): QueryTerm[] {
  const terms = cjkNgramTerms(searchableQuery(text));
  return weighted(terms.length > 0 ? terms : cjkNgramTerms(text));
}

function weighted(terms: string[]): QueryTerm[] {
  return [...new Set(terms)].map((term) => ({ term, weight: 1 }));
}

/** DropQA's leaves indexed in memory by another analysis: path (title weight), content, context. */
function indexLeaves(leaves: readonly LeafText[], analyze: (text: string) => string[]): Bm25MemoryIndex {
  const index = new Bm25MemoryIndex();
  const byDoc = new Map<string, LeafText[]>();
  for (const leaf of leaves) byDoc.set(leaf.docId, [...(byDoc.get(leaf.docId) ?? []), leaf]);
  for (const [doc, list] of byDoc)
    index.addDocument(
      doc,
      1,
      list.map((leaf) => {
        const terms = new Map<string, { tf: number; titleTf: number }>();
        let dl = 0;
        const count = (text: string, title: boolean) => {
          for (const term of text ? analyze(text) : []) {
            const held = terms.get(term) ?? { tf: 0, titleTf: 0 };
            held.tf += 1;
            if (title) held.titleTf += 1;
            terms.set(term, held);
            dl += 1;
          }
        };
        count(leaf.path, true);
        count(leaf.content, false);
        count(leaf.context, false);
        return { id: leaf.id, dl, terms };
      }),
    );
  return index;
}
