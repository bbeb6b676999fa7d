import type { AccessScope } from '#shared/access/scope.ts';
import type { Db } from '#shared/db/client.ts';
import { isCharacterGram, searchTerms } from '#shared/index/analyze.ts';
import { hasCjk } from '#shared/text/segment.ts';
import type { Bm25Params, QueryTerm } from './bm25.ts';
import { expandQuery, expansionTerms, feedbackLeaves, relevanceModel } from './feedback.ts';
import { documentFrequenciesSql, rankFulltextSql } from './fulltext-sql.ts';
import { type QueryRanker, searchBy } from './hydrate.ts';
import type { Bm25MemoryIndex, LeafScope } from './memory-index.ts';
import { readyMemoryIndex } from './memory-sync.ts';
import { searchableQuery } from './query-text.ts';
import { memoryScope, validateFilters } from './scope.ts';
import type { RankedNode, SearchFilters } from './types.ts';

/**
 * Distinct query terms searched at most: beyond this they add cost (a column each in SQL), not
 * meaning. A longer question keeps its rarest (`rarestTerms`).
 */
export const MAX_QUERY_TERMS = 64;

/**
 * The analysed query: the distinct search terms of its searchable text (asking words such as 谁,
 * 多少, who left out: `searchableQuery`), its words then its character grams, each of weight 1.
 */
export function queryTerms(query: string): QueryTerm[] {
  const searchable = searchTerms(searchableQuery(query));
  // A question of asking words alone ("Who?") is searched as it is.
  const terms = new Set(searchable.length > 0 ? searchable : searchTerms(query));
  return [...terms].map((term) => ({ term, weight: 1 }));
}

/**
 * The at most `max` terms of a query that name what it is about: all of them when there are no
 * more, else the rarest (the fewest leaves hold them, ties in the question's order), in the
 * question's order; terms no leaf holds are dropped first. A long Chinese question has a word and
 * up to three character grams per character: cut in reading order, it lost its end (稀土出口配额 in
 * `tests/integration/search/long-query.test.ts`); cut by rarity, it loses the grams of its common
 * words (过去几十年, 发展, 水平), which otherwise outweigh its rare terms.
 *
 * @example rarestTerms(terms, new Map([['#年', 500], ['#稀', 2]]), 1) // [{ term: '#稀', weight: 1 }]
 */
export function rarestTerms(
  terms: readonly QueryTerm[],
  df: ReadonlyMap<string, number>,
  max = MAX_QUERY_TERMS,
): QueryTerm[] {
  if (terms.length <= max) return [...terms];
  const rank = (term: string) => {
    const count = df.get(term) ?? 0;
    return count > 0 ? count : Number.POSITIVE_INFINITY;
  };
  const kept = new Set(
    terms
      .map((t, position) => ({ term: t.term, df: rank(t.term), position }))
      .sort((a, b) => a.df - b.df || a.position - b.position)
      .slice(0, max)
      .map((t) => t.term),
  );
  return terms.filter((t) => kept.has(t.term));
}

/** The ranking of `fulltextSearch` without loading the hits' details. */
export const rankFulltext: QueryRanker = async (deps, query, filters, limit, signal) => {
  validateFilters(filters);
  signal?.throwIfAborted();
  const analysed = queryTerms(query);
  if (analysed.length === 0 || limit < 1) return [];
  const { bm25, feedback } = deps.search;
  const params: Bm25Params = {
    k1: bm25.k1,
    b: bm25.b,
    idfExponent: bm25.idfExponent,
    titleWeight: bm25.titleWeight,
    titleCoverage: bm25.titleCoverage,
    grams: bm25.grams,
  };
  const scope = bm25.memoryIndex !== false ? memoryScope(deps.access, filters) : undefined;
  const index = scope ? await readyMemoryIndex(deps.db) : undefined;
  signal?.throwIfAborted();
  const terms = await searchedTerms(deps.db, deps.access, analysed, filters, index && { index, scope });
  // Title coverage weighs the question's own terms (`titleShare`), not those feedback adds.
  const asked = new Set(terms.map((t) => t.term));
  const rank = async (weighted: QueryTerm[], depth: number, by = params): Promise<RankedNode[]> => {
    signal?.throwIfAborted();
    return index
      ? index.rank(weighted, depth, by, scope, asked)
      : rankFulltextSql(deps.db, deps.access, weighted, filters, depth, by, asked);
  };
  if (!usesFeedback(query, feedback)) return withoutGrams(await rank(terms, limit));
  // In memory, the second ranking adds only the expansion terms to the first ranking's scores.
  const scorer = index?.scorer(params, scope);
  scorer?.add(terms);
  // The leaves feedback learns from (only those are read) are those the text matches best, by BM25
  // alone: title coverage orders the final ranking, but lifted topical neighbours' titles ("Sudden
  // infant death syndrome" for a claim on sudden death) would lend the question their words
  // (docs/quality.md, eleventh round).
  const first = scorer
    ? scorer.top(feedback.documents, { titleCoverage: false })
    : await rank(terms, feedback.documents, { ...params, titleCoverage: 0 });
  signal?.throwIfAborted();
  const leaves = await feedbackLeaves(deps.db, first, feedback.documents);
  // The most probable terms, three times as many as are added, to leave out the too common ones.
  const model = relevanceModel(leaves).slice(0, feedback.terms * 3);
  const candidates = model.map(([term]) => term);
  signal?.throwIfAborted();
  const { n, df } = index
    ? { n: index.size(scope), df: index.documentFrequencies(candidates, scope) }
    : await documentFrequenciesSql(deps.db, deps.access, candidates, filters);
  const share = (term: string) => (n > 0 ? (df.get(term) ?? 0) / n : 0);
  // Character grams are matched, not shown: highlights name the query's words.
  const own = new Set(terms.map((t) => t.term).filter((term) => !isCharacterGram(term)));
  // The index may have changed while the leaves were read: then rank the expanded query afresh.
  if (scorer?.current) scorer.add(expansionTerms(terms, model, feedback, share), { expansion: true });
  const ranked = scorer?.current
    ? scorer.top(limit)
    : await rank(expandQuery(terms, model, feedback, share), limit);
  // Highlights name the words of the query, not the terms feedback added.
  return ranked.map((hit) => ({ ...hit, highlights: hit.highlights?.filter((term) => own.has(term)) }));
};

/** The hits with the character grams left out of their highlights (they are not words). */
function withoutGrams(ranked: RankedNode[]): RankedNode[] {
  return ranked.map((hit) => ({
    ...hit,
    highlights: hit.highlights?.filter((term) => !isCharacterGram(term)),
  }));
}

/** The query terms `rarestTerms` keeps, their document frequencies read only for a long query. */
async function searchedTerms(
  db: Db,
  access: AccessScope,
  terms: QueryTerm[],
  filters: SearchFilters,
  memory: { index: Bm25MemoryIndex; scope?: LeafScope } | undefined,
): Promise<QueryTerm[]> {
  if (terms.length <= MAX_QUERY_TERMS) return terms;
  const names = terms.map((t) => t.term);
  const df = memory
    ? memory.index.documentFrequencies(names, memory.scope)
    : (await documentFrequenciesSql(db, access, names, filters)).df;
  return rarestTerms(terms, df);
}

/**
 * Whether a query is expanded by pseudo-relevance feedback: when feedback is on and the query has no
 * CJK text. A Chinese query's terms are overlapping words and character pairs, so the relevance
 * model of its best passages is a few of their frequent words counted several times over; on a
 * corpus of one site (domainrag-dev, hard negatives) expansion pulled the first ranking's
 * near-duplicates up (full-text nDCG@10 0.434 without, 0.404 with; cmrc2018-trial 0.993 either way;
 * English claims gain: scifact-train 0.695 -> 0.700; README "Retrieval quality").
 */
export function usesFeedback(query: string, feedback: { documents: number; terms: number }): boolean {
  return feedback.documents >= 1 && feedback.terms >= 1 && !hasCjk(query);
}

/**
 * Full-text search ranked by Okapi BM25 (`bm25Score`; k1, b, the idf exponent and the title weight
 * from `search.bm25`): the query is analysed like the documents (`searchTerms`), each distinct term
 * once (a repeated word does not count twice), at most 64, the rarest (`rarestTerms`), candidates are the leaves containing any query term
 * (OR: a long query's leaf need not hold every word), and N, df and avgdl are exact over the
 * searchable scope. With `search.feedback.documents` > 0 a query without CJK text is then expanded from the
 * best leaves by BM25 alone (RM3, `expandQuery`; `usesFeedback`) and ranked again, title coverage
 * weighed into that final ranking only. Current versions are scored
 * from an in-memory index kept in step with the database (`search.bm25.memoryIndex`) once it has
 * loaded (in SQL until then: `readyMemoryIndex`), over the asker's readable collections and the
 * chosen documents alone (`memoryScope`); a version, topic or category filter is scored in SQL,
 * alike (title coverage only on a scope of at most `SQL_TITLE_COVERAGE_LEAVES` leaves there).
 *
 * @example await fulltextSearch(deps, '容器化改造 预算', { version: 2 }, 10)
 */
export const fulltextSearch = searchBy(rankFulltext);
