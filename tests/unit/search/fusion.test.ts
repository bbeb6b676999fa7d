import { describe, expect, it } from 'vitest';
import { fuseScores } from '#shared/search/fusion.ts';
import type { RankedNode } from '#shared/search/types.ts';

const node = (nodeId: string, score: number, highlights?: string[]): RankedNode => ({
  nodeId,
  score,
  highlights,
});

/** Cosines min-max scaled over the candidates: the floor at the lowest. */
const minMax = (semanticWeight: number) => ({ semanticWeight, cosineFloorZ: Number.NEGATIVE_INFINITY });

describe('fuseScores', () => {
  const fulltext = [node('a', 10, ['x']), node('b', 9, ['y']), node('c', 2)];
  const semantic = [node('d', 0.9), node('b', 0.8), node('a', 0.1)];
  const cosine = new Map([
    ['a', 0.1],
    ['b', 0.8],
    ['c', 0.3],
    ['d', 0.9],
  ]);

  it('weight 0 keeps the full-text order (semantic-only finds after it), weight 1 the cosine order', () => {
    expect(fuseScores(fulltext, semantic, cosine, minMax(0)).map((n) => n.nodeId)).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(fuseScores(fulltext, semantic, cosine, minMax(1)).map((n) => n.nodeId)).toEqual([
      'd',
      'b',
      'c',
      'a',
    ]);
  });

  it('a small semantic weight reorders only close full-text scores', () => {
    // a: 0.8 * 1 + 0.2 * 0 = 0.8; b: 0.8 * 0.9 + 0.2 * 0.875 = 0.895; c: 0.16 + 0.05; d: 0.2.
    const fused = fuseScores(fulltext, semantic, cosine, minMax(0.2));
    expect(fused.map((n) => n.nodeId)).toEqual(['b', 'a', 'c', 'd']);
    expect(fused[0]?.score).toBeCloseTo(0.895, 6);
    expect(fused[0]?.relevance).toBe(0.8);
    expect(fused[0]?.highlights).toEqual(['y']);
  });

  it('handles empty sides and equal cosines without NaN', () => {
    expect(fuseScores([], [], new Map(), minMax(0.5))).toEqual([]);
    const same = new Map([
      ['a', 0.5],
      ['b', 0.5],
    ]);
    const fused = fuseScores([node('a', 2), node('b', 1)], [], same, minMax(0.5));
    expect(fused.map((n) => [n.nodeId, n.score])).toEqual([
      ['a', 0.5],
      ['b', 0.25],
    ]);
  });

  it('counts cosines only above the noise floor: a flat spread leaves near-ties alone', () => {
    // 20 full-text hits 1% apart; the cosines a flat spread with one standing out (t7).
    const near = Array.from({ length: 20 }, (_, i) => node(`t${i}`, 100 - i));
    const spread = new Map(near.map((n, i) => [n.nodeId, 0.1 + ((i * 7) % 10) * 0.01]));
    const flat = fuseScores(near, [], spread, { semanticWeight: 0.1, cosineFloorZ: 2 });
    // mean + 2 sd of an even spread of 0.10..0.19 is above its best: nothing counts, full-text order.
    expect(flat.map((n) => n.nodeId)).toEqual(near.map((n) => n.nodeId));
    // Min-max scaling lets the same noise reorder them.
    expect(fuseScores(near, [], spread, minMax(0.1)).map((n) => n.nodeId)).not.toEqual(
      near.map((n) => n.nodeId),
    );
    const standout = new Map(spread).set('t7', 0.6);
    const lifted = fuseScores(near, [], standout, { semanticWeight: 0.1, cosineFloorZ: 2 });
    expect(lifted[0]?.nodeId).toBe('t7');
    expect(lifted.slice(1).map((n) => n.nodeId)).toEqual(
      near.filter((n) => n.nodeId !== 't7').map((n) => n.nodeId),
    );
  });
});
