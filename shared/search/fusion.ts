import type { RankedNode } from './types.ts';

/**
 * How a hybrid search trusts its semantic side: the weight of the normalised cosine similarity in
 * the fused score (the full-text BM25 gets the rest). Set per embedder kind in
 * `search.hybrid.<kind>.semanticWeight`: the offline hashing embedder carries far less meaning than
 * a trained model.
 */
export interface FusionOptions {
  /** 0 ranks by full-text alone, 1 by semantic alone. */
  semanticWeight: number;
}

/**
 * Convex combination of normalised scores: each candidate (found by either side) scores
 * `(1 - w) * bm25 / maxBm25 + w * (cos - minCos) / (maxCos - minCos)`, where `w` is the semantic
 * weight, BM25 is divided by the best BM25 of the query (a candidate full-text did not find gets 0)
 * and cosine is min-max scaled over the candidates (`cosine` must hold every candidate's similarity;
 * one without gets the lowest). Unlike reciprocal rank fusion, a weak semantic side moves the
 * ranking only where full-text scores are close. Ties keep full-text order, then semantic order.
 *
 * @example fuseScores(fulltext, semantic, cosineById, { semanticWeight: 0.2 }).slice(0, 10)
 */
export function fuseScores(
  fulltext: readonly RankedNode[],
  semantic: readonly RankedNode[],
  cosine: ReadonlyMap<string, number>,
  options: FusionOptions,
): RankedNode[] {
  const w = Math.min(1, Math.max(0, options.semanticWeight));
  const candidates = new Map<string, RankedNode & { order: number; bm25: number }>();
  for (const node of [...fulltext, ...semantic]) {
    const held = candidates.get(node.nodeId);
    if (held) {
      if (node.highlights) held.highlights = [...new Set([...(held.highlights ?? []), ...node.highlights])];
      continue;
    }
    candidates.set(node.nodeId, { ...node, bm25: 0, order: candidates.size });
  }
  for (const node of fulltext) {
    const held = candidates.get(node.nodeId);
    if (held) held.bm25 = node.score;
  }
  const maxBm25 = Math.max(0, ...fulltext.map((n) => n.score));
  const cosines = [...candidates.keys()].map((id) => cosine.get(id)).filter((c) => c !== undefined);
  const minCos = Math.min(...cosines);
  const spread = Math.max(...cosines) - minCos;
  const fused = [...candidates.values()].map((node) => {
    const c = cosine.get(node.nodeId);
    const sem = c === undefined || !(spread > 0) ? 0 : (c - minCos) / spread;
    const text = maxBm25 > 0 ? node.bm25 / maxBm25 : 0;
    return { ...node, score: (1 - w) * text + w * sem, relevance: c ?? node.relevance };
  });
  return fused
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ order: _order, bm25: _bm25, ...node }) => node);
}
