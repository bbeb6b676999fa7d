import { hybridSearch } from './hybrid.ts';
import { rerankHits } from './rerank.ts';
import type { SearchDeps, SearchFilters, SearchHit } from './types.ts';

/**
 * What every question-answering flow retrieves with: hybrid search (at least as good as full-text and
 * semantic alone on the dev sets, README "Retrieval quality"), then, when `search.rerank` configures a
 * reranker, its first `search.rerank.topN` (at least `limit`) reranked by the cross-encoder. Once
 * `signal` aborts (the asker went away) no further query or model call starts: it rejects instead.
 *
 * @example const hits = await retrievePassages(deps, 'What is the 2024 budget?', { documentIds }, 8);
 */
export async function retrievePassages(
  deps: SearchDeps,
  query: string,
  filters: SearchFilters = {},
  limit: number = deps.search.topK,
  signal?: AbortSignal,
): Promise<SearchHit[]> {
  if (!deps.reranker) return hybridSearch(deps, query, filters, limit, signal);
  const hits = await hybridSearch(deps, query, filters, Math.max(limit, deps.search.rerank.topN), signal);
  signal?.throwIfAborted();
  return (await rerankHits(deps, query, hits)).slice(0, limit);
}
