import { describe, expect, it } from 'vitest';
import { bm25Score } from '#shared/search/bm25.ts';
import { Bm25MemoryIndex } from '#shared/search/memory-index.ts';
import { parseTsvectorCounts } from '#shared/search/tsvector-text.ts';

const params = { k1: 1.2, b: 0.75 };
const leaf = (id: string, terms: Record<string, number>) => ({
  id,
  dl: Object.values(terms).reduce((a, b) => a + b, 0),
  terms: new Map(Object.entries(terms)),
});

describe('parseTsvectorCounts', () => {
  it('counts positions per lexeme, including quoted quotes and backslashes', () => {
    const counts = parseTsvectorCounts(String.raw`'a':1A,3,7B 'it''s':2 'c\\d':4 '预算':5B,6B 'x y':8`);
    expect(Object.fromEntries(counts)).toEqual({ a: 3, "it's": 1, 'c\\d': 1, 预算: 2, 'x y': 1 });
  });

  it('counts a lexeme without positions once and reads an empty vector as nothing', () => {
    expect(Object.fromEntries(parseTsvectorCounts("'solo' 'b':1"))).toEqual({ solo: 1, b: 1 });
    expect(parseTsvectorCounts('').size).toBe(0);
  });
});

describe('Bm25MemoryIndex', () => {
  it('scores like bm25Score over its own statistics', () => {
    const index = new Bm25MemoryIndex();
    index.addDocument('d1', 1, [leaf('n1', { budget: 2, plan: 1 }), leaf('n2', { team: 3 })]);
    index.addDocument('d2', 1, [leaf('n3', { budget: 1, team: 1, cost: 4 })]);
    const corpus = { n: 3, avgdl: (3 + 3 + 6) / 3 };
    const ranked = index.rank(['budget', 'team', 'budget'], 10, params);
    const expected: Record<string, number> = {
      n1: bm25Score([{ tf: 2, df: 2 }], 3, corpus, params),
      n2: bm25Score([{ tf: 3, df: 2 }], 3, corpus, params),
      n3: bm25Score(
        [
          { tf: 1, df: 2 },
          { tf: 1, df: 2 },
        ],
        6,
        corpus,
        params,
      ),
    };
    expect(ranked).toHaveLength(3);
    for (const hit of ranked) expect(hit.score).toBeCloseTo(expected[hit.nodeId] ?? Number.NaN, 10);
    expect(ranked.map((h) => h.score)).toEqual([...ranked.map((h) => h.score)].sort((a, b) => b - a));
    expect(ranked.find((h) => h.nodeId === 'n3')?.highlights).toEqual(['budget', 'team']);
  });

  it('drops a removed or replaced document from results and statistics', () => {
    const index = new Bm25MemoryIndex();
    index.addDocument('d1', 1, [leaf('old', { budget: 1 })]);
    index.addDocument('d2', 1, [leaf('other', { budget: 1, extra: 1 })]);
    index.addDocument('d1', 2, [leaf('new', { plan: 1 })]);
    expect(index.rank(['budget'], 10, params).map((h) => h.nodeId)).toEqual(['other']);
    expect(index.versions().get('d1')).toBe(2);
    index.removeDocument('d2');
    expect(index.rank(['budget'], 10, params)).toEqual([]);
    expect(index.size).toBe(1);
  });

  it('returns the best `limit` leaves, ties ordered by node id', () => {
    const index = new Bm25MemoryIndex();
    const leaves = Array.from({ length: 50 }, (_, i) => leaf(`n${String(i).padStart(2, '0')}`, { same: 1 }));
    index.addDocument('d', 1, leaves.reverse());
    expect(index.rank(['same'], 3, params).map((h) => h.nodeId)).toEqual(['n00', 'n01', 'n02']);
  });

  it('keeps working after compacting many removed documents', () => {
    const index = new Bm25MemoryIndex();
    for (let d = 0; d < 30; d++) {
      index.addDocument(
        `d${d}`,
        1,
        Array.from({ length: 800 }, (_, i) => leaf(`d${d}-${i}`, { common: 1 })),
      );
    }
    for (let d = 0; d < 20; d++) index.removeDocument(`d${d}`);
    index.addDocument('fresh', 1, [leaf('f', { common: 5 })]);
    const ranked = index.rank(['common'], 2, params);
    expect(ranked[0]?.nodeId).toBe('f');
    expect(index.size).toBe(10 * 800 + 1);
  });
});
