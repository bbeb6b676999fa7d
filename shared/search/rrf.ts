import type { RankedNode } from './types.ts';

/**
 * Reciprocal rank fusion: each node scores `sum over lists of 1 / (k + rank)` (rank from 1), so a
 * node ranked well by several searches rises above one ranked first by a single search. Ties keep
 * the order in which nodes were first seen. Highlights and relevance of the inputs are merged.
 *
 * @example reciprocalRankFusion([fulltext, semantic], 60).slice(0, 10)
 */
export function reciprocalRankFusion(lists: RankedNode[][], k: number): RankedNode[] {
  const fused = new Map<string, RankedNode & { first: number }>();
  let seen = 0;
  for (const list of lists) {
    list.forEach((node, index) => {
      const contribution = 1 / (k + index + 1);
      const current = fused.get(node.nodeId);
      if (!current) {
        fused.set(node.nodeId, {
          nodeId: node.nodeId,
          score: contribution,
          highlights: node.highlights,
          relevance: node.relevance,
          first: seen++,
        });
        return;
      }
      current.score += contribution;
      current.relevance ??= node.relevance;
      if (node.highlights)
        current.highlights = [...new Set([...(current.highlights ?? []), ...node.highlights])];
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .map(({ first: _first, ...node }) => node);
}
