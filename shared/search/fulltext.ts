import { searchTerms } from '#shared/index/analyze.ts';
import { rankFulltextSql } from './fulltext-sql.ts';
import { type QueryRanker, searchBy } from './hydrate.ts';
import { syncedMemoryIndex } from './memory-sync.ts';
import { isDefaultScope, validateFilters } from './scope.ts';

/** Distinct query terms beyond this add cost, not meaning. */
const MAX_TERMS = 64;

/** The ranking of `fulltextSearch` without loading the hits' details. */
export const rankFulltext: QueryRanker = async (deps, query, filters, limit) => {
  validateFilters(filters);
  const terms = [...new Set(searchTerms(query))].slice(0, MAX_TERMS);
  if (terms.length === 0 || limit < 1) return [];
  const params = { k1: deps.search.bm25.k1, b: deps.search.bm25.b };
  if (isDefaultScope(filters) && deps.search.bm25.memoryIndex !== false) {
    const index = await syncedMemoryIndex(deps.db);
    return index.rank(terms, limit, params);
  }
  return rankFulltextSql(deps.db, terms, filters, limit, params);
};

/**
 * Full-text search ranked by Okapi BM25 (`bm25Score`; k1 and b from `search.bm25`): the query is
 * segmented like the documents (jieba for CJK, lower-cased words for Latin), candidates are the leaves
 * containing any query term, and N, df and avgdl are exact over the searchable scope. The default
 * scope is scored from an in-memory index kept in step with the database (`search.bm25.memoryIndex`);
 * filtered scopes are scored in SQL.
 *
 * @example await fulltextSearch(deps, '容器化改造 预算', { version: 2 }, 10)
 */
export const fulltextSearch = searchBy(rankFulltext);
