import { describe, expect, it } from 'vitest';
import { byteBatches, parameterBytes } from '#shared/db/data-api-limits.ts';

describe('byteBatches', () => {
  it('cuts consecutive batches at the byte budget and at the row limit', () => {
    const sizes = [4, 4, 4, 9, 1, 1, 1];
    expect(byteBatches(sizes, (n) => n, { maxBytes: 10, maxRows: 2 })).toEqual([[4, 4], [4], [9, 1], [1, 1]]);
  });

  it('gives an item above the budget a batch of its own', () => {
    expect(byteBatches([2, 50, 2], (n) => n, { maxBytes: 10 })).toEqual([[2], [50], [2]]);
  });
});

describe('parameterBytes', () => {
  it('counts each value as the JSON string it travels as, escapes and multi-byte characters included', () => {
    expect(parameterBytes(['a"b', null]) - parameterBytes(['', null])).toBe(4);
    expect(parameterBytes(['季']) - parameterBytes([''])).toBe(3);
  });
});
