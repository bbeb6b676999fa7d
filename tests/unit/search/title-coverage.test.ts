import { describe, expect, it } from 'vitest';
import { bm25Score, bm25TermWeight } from '#shared/search/bm25.ts';
import { Bm25MemoryIndex } from '#shared/search/memory-index.ts';
import { titleShare, withTitleCoverage } from '#shared/search/title-coverage.ts';

const params = { k1: 0.9, b: 0.5 };
/** A leaf from term -> tf, or term -> [tf, of which in the title]. */
const leaf = (id: string, terms: Record<string, number | [number, number]>) => {
  const counts = Object.entries(terms).map(([term, c]): [string, { tf: number; titleTf: number }] => [
    term,
    typeof c === 'number' ? { tf: c, titleTf: 0 } : { tf: c[0], titleTf: c[1] },
  ]);
  return { id, dl: counts.reduce((sum, [, c]) => sum + c.tf, 0), terms: new Map(counts) };
};
const q = (...terms: string[]) => terms.map((term) => ({ term, weight: 1 }));

/**
 * Three pages: one titled by the question's subject (its text says little more), one whose text
 * repeats the subject's words (a news page mentioning it), and one on another subject.
 */
function pages(): Bm25MemoryIndex {
  const index = new Bm25MemoryIndex();
  index.addDocument('titled', 1, [leaf('t', { sclerostin: [2, 1], fracture: [2, 1], serum: 1, women: 6 })]);
  index.addDocument('mentions', 1, [leaf('m', { sclerostin: 3, fracture: 3, bone: 2 })]);
  index.addDocument('other', 1, [leaf('o', { bone: 3, women: 2 })]);
  return index;
}

describe('withTitleCoverage', () => {
  it('multiplies the score by 1 + weight x the title coverage', () => {
    expect(withTitleCoverage(4, 0.5, 1)).toBeCloseTo(6, 12);
    expect(withTitleCoverage(4, 1, 1)).toBeCloseTo(8, 12);
    expect(withTitleCoverage(4, 0, 1)).toBe(4);
    expect(withTitleCoverage(4, 1, 0)).toBe(4);
  });
});

describe('titleShare', () => {
  it('is the share of the title worth the question holds, squared, at most 1', () => {
    expect(titleShare(3, 4)).toBeCloseTo(0.5625, 12);
    expect(titleShare(4, 4)).toBe(1);
    expect(titleShare(1, 4)).toBeCloseTo(0.0625, 12);
    expect(titleShare(0, 4)).toBe(0);
    expect(titleShare(2, 0)).toBe(0);
    expect(titleShare(5, 4)).toBe(1);
  });
});

describe('title coverage in the BM25 index', () => {
  it('ranks the page whose title names the subject above the page that merely mentions it', () => {
    const query = q('sclerostin', 'fracture');
    const plain = pages().rank(query, 10, params);
    expect(plain[0]?.nodeId).toBe('m');
    const covered = pages().rank(query, 10, { ...params, titleCoverage: 1 });
    expect(covered.map((h) => h.nodeId)).toEqual(['t', 'm']);
  });

  it('scores BM25 times 1 + the squared idf-weighted share of the title the question holds', () => {
    const query = q('sclerostin', 'serum', 'bone');
    const tuned = { ...params, idfExponent: 1.5, titleCoverage: 1 };
    const ranked = pages().rank(query, 10, tuned);
    const corpus = { n: 3, avgdl: (11 + 8 + 5) / 3 };
    const worth = (df: number) => bm25TermWeight(3, df, tuned);
    // The title of 't' holds sclerostin (df 2) and fracture (df 2); the question holds sclerostin.
    const share = (worth(2) / (worth(2) + worth(2))) ** 2;
    const bm25 = bm25Score(
      [
        { tf: 2, titleTf: 1, df: 2 },
        { tf: 1, df: 1 },
      ],
      11,
      corpus,
      tuned,
    );
    expect(ranked.find((h) => h.nodeId === 't')?.score).toBeCloseTo(bm25 * (1 + share), 10);
    // A page with no title keeps its BM25.
    expect(ranked.find((h) => h.nodeId === 'o')?.score).toBeCloseTo(
      bm25Score([{ tf: 3, df: 2 }], 5, corpus, tuned),
      11,
    );
  });

  it('leaves the terms a feedback step adds out of the share', () => {
    const tuned = { ...params, titleCoverage: 1 };
    const asked = pages().scorer(tuned);
    asked.add(q('sclerostin', 'fracture'));
    const expanded = pages().scorer(tuned);
    expanded.add(q('sclerostin'));
    expanded.add(q('fracture'), { expansion: true });
    const score = (hits: { nodeId: string; score: number }[]) =>
      hits.find((h) => h.nodeId === 't')?.score ?? 0;
    // Asked, the title is held whole (x2); added by feedback, fracture counts in BM25 alone (x1.25).
    const bm25 = score(pages().rank(q('sclerostin', 'fracture'), 10, params));
    expect(score(asked.top(10))).toBeCloseTo(bm25 * 2, 10);
    expect(score(expanded.top(10))).toBeCloseTo(bm25 * 1.25, 10);
    expect(
      score(pages().rank(q('sclerostin', 'fracture'), 10, tuned, undefined, new Set(['sclerostin']))),
    ).toBeCloseTo(bm25 * 1.25, 10);
  });
});
