import { ValidationError } from '#shared/errors.ts';
import { fulltextSearch } from './fulltext.ts';
import { hybridSearch } from './hybrid.ts';
import { keywordSearch } from './keyword.ts';
import { rerankHits } from './rerank.ts';
import { semanticSearch } from './semantic.ts';
import type { SearchDeps, SearchHit, SearchRequest } from './types.ts';

/** Keywords of a keyword query: whitespace-separated, "double quotes" keep a phrase together. */
export function splitKeywords(query: string): string[] {
  return [...query.matchAll(/"([^"]+)"|(\S+)/g)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean);
}

/**
 * Runs one search of the requested kind. Keyword queries are split into keywords (a regex query is
 * one pattern); `limit` defaults to `search.topK` (keyword: `search.keywordMaxResults`). With
 * `rerank`, the first `search.rerank.topN` results (at least `limit`) are reranked by the configured
 * cross-encoder before the first `limit` are returned.
 *
 * @example await search(deps, { query: '预算', kind: 'hybrid', limit: 5, filters: { version: 2 } })
 */
export async function search(deps: SearchDeps, request: SearchRequest): Promise<SearchHit[]> {
  request.signal?.throwIfAborted();
  const query = request.query.trim();
  if (!query) throw new ValidationError('query must not be empty');
  const filters = request.filters ?? {};
  if (request.rerank) {
    if (request.kind === 'keyword')
      throw new ValidationError('rerank applies to fulltext, semantic and hybrid searches');
    const limit = request.limit ?? deps.search.topK;
    const hits = await search(deps, {
      ...request,
      rerank: false,
      limit: Math.max(limit, deps.search.rerank.topN),
    });
    request.signal?.throwIfAborted();
    return (await rerankHits(deps, query, hits)).slice(0, limit);
  }
  switch (request.kind) {
    case 'keyword': {
      const mode = request.keywordMode ?? 'exact';
      return keywordSearch(
        deps,
        {
          keywords: mode === 'regex' ? [query] : splitKeywords(query),
          mode,
          caseSensitive: request.caseSensitive,
          signal: request.signal,
        },
        filters,
        request.limit ?? deps.search.keywordMaxResults,
      );
    }
    case 'fulltext':
      return fulltextSearch(deps, query, filters, request.limit ?? deps.search.topK, request.signal);
    case 'semantic':
      return semanticSearch(deps, query, filters, request.limit ?? deps.search.topK, request.signal);
    case 'hybrid':
      return hybridSearch(deps, query, filters, request.limit ?? deps.search.topK, request.signal);
    default:
      throw new ValidationError(`unknown search kind '${String(request.kind)}'`);
  }
}
