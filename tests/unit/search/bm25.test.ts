import { describe, expect, it } from 'vitest';
import { bm25Idf, bm25Score } from '#shared/search/bm25.ts';

const params = { k1: 1.2, b: 0.75 };

describe('bm25Score', () => {
  it('matches the Okapi formula for one term when computed by hand', () => {
    // idf = ln(1 + (10 - 2 + 0.5) / (2 + 0.5)) = ln(4.4); tf part = 3 * 2.2 / (3 + 1.2 * (0.25 + 0.75 * 8 / 10))
    const expected = Math.log(4.4) * ((3 * 2.2) / (3 + 1.2 * (0.25 + 0.75 * 0.8)));
    expect(bm25Score([{ tf: 3, df: 2 }], 8, { n: 10, avgdl: 10 }, params)).toBeCloseTo(expected, 12);
  });

  it('sums over terms and ignores terms the document lacks', () => {
    const corpus = { n: 100, avgdl: 40 };
    const a = bm25Score([{ tf: 1, df: 5 }], 30, corpus, params);
    const b = bm25Score([{ tf: 2, df: 50 }], 30, corpus, params);
    expect(
      bm25Score(
        [
          { tf: 1, df: 5 },
          { tf: 2, df: 50 },
          { tf: 0, df: 7 },
        ],
        30,
        corpus,
        params,
      ),
    ).toBeCloseTo(a + b, 12);
  });

  it('ranks a rarer term above a common one and a shorter document above a longer one', () => {
    const corpus = { n: 1000, avgdl: 50 };
    expect(bm25Score([{ tf: 1, df: 3 }], 50, corpus, params)).toBeGreaterThan(
      bm25Score([{ tf: 1, df: 600 }], 50, corpus, params),
    );
    expect(bm25Score([{ tf: 1, df: 3 }], 20, corpus, params)).toBeGreaterThan(
      bm25Score([{ tf: 1, df: 3 }], 80, corpus, params),
    );
  });

  it('ignores document length when b is 0', () => {
    const corpus = { n: 10, avgdl: 10 };
    const noNorm = { k1: 1.2, b: 0 };
    expect(bm25Score([{ tf: 2, df: 1 }], 5, corpus, noNorm)).toBeCloseTo(
      bm25Score([{ tf: 2, df: 1 }], 500, corpus, noNorm),
      12,
    );
  });
});

describe('bm25Idf', () => {
  it('stays positive even for a term in every document', () => {
    expect(bm25Idf(10, 10)).toBeGreaterThan(0);
    expect(bm25Idf(10, 1)).toBeGreaterThan(bm25Idf(10, 9));
  });
});
