import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from '#shared/search/rrf.ts';

const ranked = (...ids: string[]) => ids.map((nodeId, i) => ({ nodeId, score: 100 - i }));

describe('reciprocalRankFusion', () => {
  it('scores each node by the sum of 1 / (k + rank) over the lists', () => {
    const fused = reciprocalRankFusion([ranked('a', 'b', 'c'), ranked('c', 'a')], 60);
    const score = Object.fromEntries(fused.map((n) => [n.nodeId, n.score]));
    expect(score.a).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(score.b).toBeCloseTo(1 / 62, 12);
    expect(score.c).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused.map((n) => n.nodeId)).toEqual(['a', 'c', 'b']);
  });

  it('lifts a node found by both lists above nodes found first by one', () => {
    const fused = reciprocalRankFusion([ranked('x', 'both'), ranked('y', 'both')], 60);
    expect(fused[0]?.nodeId).toBe('both');
  });

  it('keeps first-seen order for ties and merges highlights and relevance', () => {
    const fused = reciprocalRankFusion(
      [
        [{ nodeId: 'p', score: 3, highlights: ['budget'] }],
        [
          { nodeId: 'q', score: 0.9, relevance: 0.9 },
          { nodeId: 'p', score: 0.5, relevance: 0.5, highlights: ['plan'] },
        ],
      ],
      10,
    );
    expect(fused.map((n) => n.nodeId)).toEqual(['p', 'q']);
    expect(fused[0]?.highlights).toEqual(['budget', 'plan']);
    expect(fused[0]?.relevance).toBe(0.5);
    expect(reciprocalRankFusion([ranked('m'), ranked('n')], 60).map((n) => n.nodeId)).toEqual(['m', 'n']);
  });

  it('returns nothing for no lists', () => {
    expect(reciprocalRankFusion([], 60)).toEqual([]);
    expect(reciprocalRankFusion([[], []], 60)).toEqual([]);
  });
});
