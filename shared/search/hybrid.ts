import { rankFulltext } from './fulltext.ts';
import { fuseScores } from './fusion.ts';
import { type QueryRanker, searchBy } from './hydrate.ts';
import { validateFilters } from './scope.ts';
import { cosineSimilarities, embedQuery, rankByVector } from './semantic.ts';

/** How deep each list is read before fusion, relative to the results wanted. */
const DEPTH_FACTOR = 3;
const MIN_DEPTH = 30;
const MAX_DEPTH = 300;

/** The ranking of `hybridSearch` without loading the hits' details. */
export const rankHybrid: QueryRanker = async (deps, query, filters, limit, signal) => {
  validateFilters(filters);
  if (limit < 1 || !query.trim()) return [];
  const depth = Math.min(Math.max(limit * DEPTH_FACTOR, MIN_DEPTH), MAX_DEPTH);
  const vectorPromise = embedQuery(deps.embedder, query);
  const [fulltext, semantic] = await Promise.all([
    rankFulltext(deps, query, filters, depth, signal),
    vectorPromise.then((vector) => {
      signal?.throwIfAborted();
      return rankByVector(deps, vector, filters, depth);
    }),
  ]);
  const kept = semantic.filter((hit) => hit.score >= deps.search.minSemanticScore);
  const cosine = new Map(semantic.map((hit) => [hit.nodeId, hit.score]));
  /** Looks up the cosines of the hits the semantic side did not return. */
  const addCosines = async (hits: readonly { nodeId: string }[]) => {
    const unknown = hits.filter((hit) => !cosine.has(hit.nodeId)).map((hit) => hit.nodeId);
    if (unknown.length === 0) return;
    signal?.throwIfAborted();
    const similarities = await cosineSimilarities(deps.db, deps.embedder, await vectorPromise, unknown);
    for (const [id, similarity] of similarities) cosine.set(id, similarity);
  };
  const { semanticWeight, cosineFloorZ } = deps.search.hybrid;
  // At weight 0 (the offline embedder) the fusion orders by BM25 alone: only the hits returned
  // need their cosine, as their relevance, not the whole depth read.
  if (semanticWeight > 0) await addCosines(fulltext);
  const fused = fuseScores(fulltext, kept, cosine, { semanticWeight, cosineFloorZ }).slice(0, limit);
  if (semanticWeight <= 0) await addCosines(fused);
  return fused.map((hit) => ({ ...hit, relevance: cosine.get(hit.nodeId) ?? 0 }));
};

/**
 * Hybrid search: full-text (BM25) and semantic (cosine) rankings computed in parallel, semantic hits
 * below `search.minSemanticScore` dropped, then fused by a weighted sum of normalised scores
 * (`fuseScores`, semantic weight `search.hybrid.semanticWeight`, by default per embedder kind; a
 * cosine counts from `search.hybrid.cosineFloorZ` standard deviations above the candidates' mean).
 * Every hit carries its cosine `relevance` to the query.
 *
 * @example await hybridSearch(deps, 'What is the 2024 budget?', { documentIds: [id] }, 10)
 */
export const hybridSearch = searchBy(rankHybrid);
