import { searchTerms } from '#shared/index/analyze.ts';
import type { Bm25Params, QueryTerm } from './bm25.ts';
import { expandQuery, expansionTerms, feedbackLeaves, relevanceModel } from './feedback.ts';
import { documentFrequenciesSql, rankFulltextSql } from './fulltext-sql.ts';
import { type QueryRanker, searchBy } from './hydrate.ts';
import { syncedMemoryIndex } from './memory-sync.ts';
import { isDefaultScope, validateFilters } from './scope.ts';
import type { RankedNode } from './types.ts';

/** Distinct query terms beyond this add cost, not meaning. */
const MAX_TERMS = 64;

/** The analysed query: its distinct search terms (at most 64), each of weight 1. */
export function queryTerms(query: string): QueryTerm[] {
  return [...new Set(searchTerms(query))].slice(0, MAX_TERMS).map((term) => ({ term, weight: 1 }));
}

/** The ranking of `fulltextSearch` without loading the hits' details. */
export const rankFulltext: QueryRanker = async (deps, query, filters, limit) => {
  validateFilters(filters);
  const terms = queryTerms(query);
  if (terms.length === 0 || limit < 1) return [];
  const { bm25, feedback } = deps.search;
  const params: Bm25Params = {
    k1: bm25.k1,
    b: bm25.b,
    idfExponent: bm25.idfExponent,
    titleWeight: bm25.titleWeight,
  };
  const index =
    isDefaultScope(filters) && bm25.memoryIndex !== false ? await syncedMemoryIndex(deps.db) : undefined;
  const rank = (weighted: QueryTerm[], depth: number): Promise<RankedNode[]> =>
    index
      ? Promise.resolve(index.rank(weighted, depth, params))
      : rankFulltextSql(deps.db, weighted, filters, depth, params);
  if (feedback.documents < 1 || feedback.terms < 1) return rank(terms, limit);
  // In memory, the second ranking adds only the expansion terms to the first ranking's scores.
  const scorer = index?.scorer(params);
  scorer?.add(terms);
  const firstDepth = Math.max(limit, feedback.documents);
  const first = scorer ? scorer.top(firstDepth) : await rank(terms, firstDepth);
  const leaves = await feedbackLeaves(deps.db, first, feedback.documents);
  // The most probable terms, three times as many as are added, to leave out the too common ones.
  const model = relevanceModel(leaves).slice(0, feedback.terms * 3);
  const candidates = model.map(([term]) => term);
  const { n, df } = index
    ? { n: index.size, df: index.documentFrequencies(candidates) }
    : await documentFrequenciesSql(deps.db, candidates, filters);
  const share = (term: string) => (n > 0 ? (df.get(term) ?? 0) / n : 0);
  const own = new Set(terms.map((t) => t.term));
  // The index may have changed while the leaves were read: then rank the expanded query afresh.
  if (scorer?.current) scorer.add(expansionTerms(terms, model, feedback, share));
  const ranked = scorer?.current
    ? scorer.top(limit)
    : await rank(expandQuery(terms, model, feedback, share), limit);
  // Highlights name the words of the query, not the terms feedback added.
  return ranked.map((hit) => ({ ...hit, highlights: hit.highlights?.filter((term) => own.has(term)) }));
};

/**
 * Full-text search ranked by Okapi BM25 (`bm25Score`; k1, b, the idf exponent and the title weight
 * from `search.bm25`): the query is analysed like the documents (`searchTerms`), each distinct term
 * once (a repeated word does not count twice), candidates are the leaves containing any query term
 * (OR: a long query's leaf need not hold every word), and N, df and avgdl are exact over the
 * searchable scope. With `search.feedback.documents` > 0 the query is then expanded from the best
 * leaves (RM3, `expandQuery`) and ranked again. The default scope is scored from an in-memory index
 * kept in step with the database (`search.bm25.memoryIndex`); filtered scopes are scored in SQL, alike.
 *
 * @example await fulltextSearch(deps, '容器化改造 预算', { version: 2 }, 10)
 */
export const fulltextSearch = searchBy(rankFulltext);
