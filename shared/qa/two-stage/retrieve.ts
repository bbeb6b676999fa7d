import { retrievePassages } from '#shared/search/passages.ts';
import type { SearchDeps, SearchFilters, SearchHit } from '#shared/search/types.ts';
import type { SubQuery } from './types.ts';

/**
 * The retrieval each stage runs for one sub-query (docs/spec.md#sub-query-retrieval): BM25 and
 * semantic rankings in parallel, fused, `topK` passages within the filters. The benchmark times
 * this very function.
 *
 * @example await retrieveSubQuery(deps, { text: '云平台建设的预算' }, {}, 10)
 */
export function retrieveSubQuery(
  deps: SearchDeps,
  subquery: Pick<SubQuery, 'text'>,
  filters: SearchFilters,
  topK: number,
): Promise<SearchHit[]> {
  return retrievePassages(deps, subquery.text, filters, topK);
}
