import { describe, expect, it } from 'vitest';
import { completeRanking } from '#shared/llm/rerank/types.ts';

describe('completeRanking', () => {
  it('keeps equal scores in input order, whatever order the model listed them in', () => {
    const ranked = completeRanking(
      [
        { index: 3, score: 0.5 },
        { index: 0, score: 0.2 },
        { index: 2, score: 0.5 },
        { index: 1, score: 0.5 },
      ],
      5,
      'm',
    );
    expect(ranked.map((r) => r.index)).toEqual([1, 2, 3, 0, 4]);
  });
});
