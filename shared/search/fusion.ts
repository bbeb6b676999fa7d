import type { RankedNode } from './types.ts';

/**
 * How a hybrid search trusts its semantic side: the weight of the normalised cosine similarity in
 * the fused score (the full-text BM25 gets the rest), set per embedder kind in
 * `search.hybrid.semanticWeightByEmbedder.<kind>` (the offline hashing embedder carries far less
 * meaning than a trained model), and how far a cosine must stand out of the query's candidates to
 * count at all.
 */
export interface FusionOptions {
  /** 0 ranks by full-text alone, 1 by semantic alone. */
  semanticWeight: number;
  /**
   * A cosine counts only above the candidates' mean cosine plus this many standard deviations
   * (`search.hybrid.cosineFloorZ`): below it, differences are the embedder's noise for this query.
   */
  cosineFloorZ: number;
}

/**
 * Convex combination of normalised scores: each candidate (found by either side) scores
 * `(1 - w) * bm25 / maxBm25 + w * max(0, (cos - floor) / (maxCos - floor))`, where `w` is the
 * semantic weight, BM25 is divided by the best BM25 of the query (a candidate full-text did not find
 * gets 0), and the cosine is scaled from the query's noise floor, `floor = mean + z * sd` of the
 * candidates' cosines, up to their best (`cosine` must hold every candidate's similarity; one
 * without counts as at the floor). So the semantic side moves the ranking only where it singles out
 * a few candidates for this query; where its cosines are a flat spread (a hashing embedder on a
 * question it cannot tell apart) it leaves the full-text order alone instead of reshuffling
 * near-ties at random (README, Retrieval quality: hybrid nDCG@10 scifact-train 0.7003 -> 0.7011,
 * cmrc2018-trial 0.99133 -> 0.99135 = full-text, against min-max scaling). Unlike reciprocal rank
 * fusion, a weak semantic side moves the ranking only where full-text scores are close. Ties keep
 * full-text order, then semantic order (each already orders its equal scores by document key and
 * ordinal, `comparePositions`), so the fused order is the same on every ingest of the same files.
 *
 * @example fuseScores(fulltext, semantic, cosineById, { semanticWeight: 0.2, cosineFloorZ: 2 }).slice(0, 10)
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
  const floor = cosineFloor(candidates.keys(), cosine, options.cosineFloorZ);
  const fused = [...candidates.values()].map((node) => {
    const c = cosine.get(node.nodeId);
    const sem =
      c === undefined || !(floor.top > floor.at) ? 0 : Math.max(0, (c - floor.at) / (floor.top - floor.at));
    const text = maxBm25 > 0 ? node.bm25 / maxBm25 : 0;
    return { ...node, score: (1 - w) * text + w * sem, relevance: c ?? node.relevance };
  });
  return fused
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ order: _order, bm25: _bm25, ...node }) => node);
}

/** The candidates' best cosine and the floor `mean + z * sd` of their cosines (never below the lowest). */
function cosineFloor(
  ids: Iterable<string>,
  cosine: ReadonlyMap<string, number>,
  z: number,
): { at: number; top: number } {
  const values: number[] = [];
  for (const id of ids) {
    const c = cosine.get(id);
    if (c !== undefined) values.push(c);
  }
  if (values.length === 0) return { at: 0, top: 0 };
  const mean = values.reduce((sum, c) => sum + c, 0) / values.length;
  const sd = Math.sqrt(values.reduce((sum, c) => sum + (c - mean) ** 2, 0) / values.length);
  const lowest = Math.min(...values);
  return { at: sd > 0 ? Math.max(lowest, mean + z * sd) : lowest, top: Math.max(...values) };
}
