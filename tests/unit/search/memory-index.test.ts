import { describe, expect, it } from 'vitest';
import { bm25Score } from '#shared/search/bm25.ts';
import { Bm25MemoryIndex } from '#shared/search/memory-index.ts';
import { parseTsvectorCounts } from '#shared/search/tsvector-text.ts';

const params = { k1: 1.2, b: 0.75 };
/** A leaf from term -> tf, or term -> [tf, of which in the title]. */
const leaf = (id: string, terms: Record<string, number | [number, number]>) => {
  const counts = Object.entries(terms).map(([term, c]): [string, { tf: number; titleTf: number }] => [
    term,
    typeof c === 'number' ? { tf: c, titleTf: 0 } : { tf: c[0], titleTf: c[1] },
  ]);
  return { id, dl: counts.reduce((sum, [, c]) => sum + c.tf, 0), terms: new Map(counts) };
};
/** Query terms of weight 1. */
const q = (...terms: string[]) => terms.map((term) => ({ term, weight: 1 }));

describe('parseTsvectorCounts', () => {
  it('counts positions per lexeme, including quoted quotes and backslashes', () => {
    const counts = parseTsvectorCounts(String.raw`'a':1A,3,7B 'it''s':2 'c\\d':4 '预算':5B,6B 'x y':8`);
    const tfs = Object.fromEntries([...counts].map(([term, c]) => [term, c.tf]));
    expect(tfs).toEqual({ a: 3, "it's": 1, 'c\\d': 1, 预算: 2, 'x y': 1 });
  });

  it('counts the positions weighted A (title, section path) apart', () => {
    const counts = parseTsvectorCounts("'plan':1A,2A,5B 'cost':3B,4C 'aim':6A");
    expect(Object.fromEntries(counts)).toEqual({
      plan: { tf: 3, titleTf: 2 },
      cost: { tf: 2, titleTf: 0 },
      aim: { tf: 1, titleTf: 1 },
    });
  });

  it('counts a lexeme without positions once and reads an empty vector as nothing', () => {
    expect(Object.fromEntries(parseTsvectorCounts("'solo' 'b':1"))).toEqual({
      solo: { tf: 1, titleTf: 0 },
      b: { tf: 1, titleTf: 0 },
    });
    expect(parseTsvectorCounts('').size).toBe(0);
  });
});

describe('Bm25MemoryIndex', () => {
  it('scores like bm25Score over its own statistics', () => {
    const index = new Bm25MemoryIndex();
    index.addDocument('d1', 1, [leaf('n1', { budget: 2, plan: 1 }), leaf('n2', { team: 3 })]);
    index.addDocument('d2', 1, [leaf('n3', { budget: 1, team: 1, cost: 4 })]);
    const corpus = { n: 3, avgdl: (3 + 3 + 6) / 3 };
    const ranked = index.rank(q('budget', 'team', 'budget'), 10, params);
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

  it('scores a scope (collections, chosen documents) as an index holding only its documents does', () => {
    const docs: [string, string, ReturnType<typeof leaf>[]][] = [
      ['d1', 'hr', [leaf('n1', { budget: 2, plan: 1 }), leaf('n2', { team: 3 })]],
      ['d2', 'eng', [leaf('n3', { budget: 1, team: 1, cost: 4 })]],
      ['d3', 'hr', [leaf('n4', { budget: 1 }), leaf('n5', { cost: 2, team: 1 })]],
      ['d4', 'default', [leaf('n6', { team: 5, budget: 3 })]],
    ];
    const whole = new Bm25MemoryIndex();
    for (const [id, collection, leaves] of docs) whole.addDocument(id, 1, leaves, { collection });
    whole.removeDocument('d4');
    const query = q('budget', 'team', 'cost');
    const scopes = [
      { collections: ['hr'] },
      { collections: ['hr', 'default'], documentIds: ['d1', 'd2', 'd4'] },
      { documentIds: ['d2', 'd3', 'nowhere'] },
      { collections: [] },
    ];
    for (const scope of scopes) {
      const only = new Bm25MemoryIndex();
      for (const [id, collection, leaves] of docs.slice(0, 3)) {
        const inCollections = !scope.collections || scope.collections.includes(collection);
        if (inCollections && (!scope.documentIds || scope.documentIds.includes(id)))
          only.addDocument(id, 1, leaves);
      }
      const label = JSON.stringify(scope);
      expect(whole.rank(query, 10, params, scope), label).toEqual(only.rank(query, 10, params));
      expect(whole.size(scope), label).toBe(only.size());
      expect(whole.documentFrequencies(['budget', 'team'], scope), label).toEqual(
        only.documentFrequencies(['budget', 'team']),
      );
    }
    expect(whole.size({ collections: ['hr'] })).toBe(4);
  });

  it('weights query terms, sharpens idf and counts title occurrences as bm25Score does', () => {
    const index = new Bm25MemoryIndex();
    index.addDocument('d1', 1, [leaf('n1', { budget: [3, 2], plan: 1 }), leaf('n2', { team: 3, x: 1 })]);
    index.addDocument('d2', 1, [leaf('n3', { budget: 1, team: [2, 1], cost: 4 }), leaf('n4', { y: 2 })]);
    const corpus = { n: 4, avgdl: (4 + 4 + 7 + 2) / 4 };
    const tuned = { ...params, idfExponent: 1.5, titleWeight: 2 };
    const ranked = index.rank(
      [
        { term: 'budget', weight: 1 },
        { term: 'team', weight: 0.25 },
      ],
      10,
      tuned,
    );
    const expected: Record<string, number> = {
      n1: bm25Score([{ tf: 3, titleTf: 2, df: 2, weight: 1 }], 4, corpus, tuned),
      n2: bm25Score([{ tf: 3, df: 2, weight: 0.25 }], 4, corpus, tuned),
      n3: bm25Score(
        [
          { tf: 1, df: 2, weight: 1 },
          { tf: 2, titleTf: 1, df: 2, weight: 0.25 },
        ],
        7,
        corpus,
        tuned,
      ),
    };
    expect(ranked).toHaveLength(3);
    for (const hit of ranked) expect(hit.score).toBeCloseTo(expected[hit.nodeId] ?? Number.NaN, 10);
    // The title counts: n1's 3 budgets, 2 in the title, weigh like 5 in the body.
    expect(expected.n1).toBeCloseTo(
      bm25Score([{ tf: 5, df: 2 }], 4, corpus, { ...tuned, titleWeight: 1 }),
      10,
    );
  });

  it('drops a removed or replaced document from results and statistics', () => {
    const index = new Bm25MemoryIndex();
    index.addDocument('d1', 1, [leaf('old', { budget: 1 })]);
    index.addDocument('d2', 1, [leaf('other', { budget: 1, extra: 1 })]);
    index.addDocument('d1', 2, [leaf('new', { plan: 1 })]);
    expect(index.rank(q('budget'), 10, params).map((h) => h.nodeId)).toEqual(['other']);
    expect(index.versions().get('d1')).toEqual({
      version: 2,
      collection: 'default',
      key: 'd1',
      analyzerVersion: 0,
    });
    index.removeDocument('d2');
    expect(index.rank(q('budget'), 10, params)).toEqual([]);
    expect(index.size()).toBe(1);
  });

  it('returns the best `limit` leaves, ties ordered by ordinal', () => {
    const index = new Bm25MemoryIndex();
    const leaves = Array.from({ length: 50 }, (_, i) => ({
      ...leaf(`n${String(i).padStart(2, '0')}`, { same: 1 }),
      ordinal: i,
    }));
    index.addDocument('d', 1, leaves.reverse());
    expect(index.rank(q('same'), 3, params).map((h) => h.nodeId)).toEqual(['n00', 'n01', 'n02']);
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
    const ranked = index.rank(q('common'), 2, params);
    expect(ranked[0]?.nodeId).toBe('f');
    expect(index.size()).toBe(10 * 800 + 1);
  });

  it('a scorer extended by more terms ranks as the summed query does, reading only the new terms', () => {
    const index = new Bm25MemoryIndex();
    index.addDocument('d1', 1, [leaf('n1', { bone: 2, hip: 1 }), leaf('n2', { cell: 3, bone: 1 })]);
    index.addDocument('d2', 1, [leaf('n3', { hip: 2, cell: 1, fractur: 1 }), leaf('n4', { fractur: 4 })]);
    const scorer = index.scorer(params);
    scorer.add(q('bone', 'hip'));
    expect(scorer.top(10).map((h) => h.nodeId)).toEqual(
      index.rank(q('bone', 'hip'), 10, params).map((h) => h.nodeId),
    );
    // Added: a new term (fractur) and more weight for one already there (bone).
    scorer.add([
      { term: 'fractur', weight: 0.5 },
      { term: 'bone', weight: 0.25 },
    ]);
    const summed = index.rank(
      [
        { term: 'bone', weight: 1.25 },
        { term: 'hip', weight: 1 },
        { term: 'fractur', weight: 0.5 },
      ],
      10,
      params,
    );
    const extended = scorer.top(10);
    expect(extended.map((h) => h.nodeId)).toEqual(summed.map((h) => h.nodeId));
    extended.forEach((hit, i) => {
      expect(hit.score).toBeCloseTo(summed[i]?.score ?? Number.NaN, 12);
      expect(hit.highlights).toEqual(summed[i]?.highlights);
    });
    expect(extended.find((h) => h.nodeId === 'n4')?.highlights).toEqual(['fractur']);
  });

  it('a scorer knows when the index changed under it and then refuses to add', () => {
    const index = new Bm25MemoryIndex();
    index.addDocument('d1', 1, [leaf('n1', { bone: 1 })]);
    const scorer = index.scorer(params);
    scorer.add(q('bone'));
    expect(scorer.current).toBe(true);
    index.addDocument('d2', 1, [leaf('n2', { bone: 1 })]);
    expect(scorer.current).toBe(false);
    expect(() => scorer.add(q('bone'))).toThrow(/changed/);
  });
});

describe('Bm25MemoryIndex ties', () => {
  it('orders equal scores by document key, then ordinal, not by node id', () => {
    const index = new Bm25MemoryIndex();
    const same = (id: string, ordinal: number) => ({ ...leaf(id, { plan: 1 }), ordinal });
    index.addDocument('d1', 1, [same('a-late', 4), same('b-early', 2)], { key: 'z/page.md' });
    index.addDocument('d2', 1, [same('c', 7)], { key: 'a/page.md' });
    index.addDocument('d3', 1, [same('0-first-id', 1)], { key: 'm/page.md' });
    expect(index.rank(q('plan'), 10, params).map((hit) => hit.nodeId)).toEqual([
      'c',
      '0-first-id',
      'b-early',
      'a-late',
    ]);
    expect(index.rank(q('plan'), 2, params).map((hit) => hit.nodeId)).toEqual(['c', '0-first-id']);
  });
});

describe('Bm25MemoryIndex kept up to date', () => {
  /** A small seeded generator (mulberry32), so a failure repeats. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const words = ['plan', 'cost', 'team', 'risk', 'budget', 'site', 'road', 'bank'];
  /** A document of 1-4 leaves, each under a title of 1-2 words and holding 1-4 words. */
  const document = (next: () => number, id: string, version: number) => {
    const pick = () => words[Math.floor(next() * words.length)] ?? 'plan';
    const title = [pick(), pick()].slice(0, 1 + Math.floor(next() * 2));
    return Array.from({ length: 1 + Math.floor(next() * 4) }, (_, i) => {
      const terms: Record<string, [number, number]> = {};
      for (const word of title) terms[word] = [1, 1];
      for (let w = Math.floor(next() * 4); w >= 0; w--) {
        const word = pick();
        terms[word] = [(terms[word]?.[0] ?? 0) + 1, terms[word]?.[1] ?? 0];
      }
      return leaf(`${id}-v${version}-${i}`, terms);
    });
  };

  it('counts df and ranks with title coverage as an index built afresh, through additions, replacements and removals', () => {
    const next = random(29);
    const index = new Bm25MemoryIndex();
    const live = new Map<string, ReturnType<typeof document>>();
    const covered = { ...params, titleCoverage: 1 };
    for (let step = 0; step < 400; step++) {
      const id = `d${Math.floor(next() * 40)}`;
      if (next() < 0.25) {
        index.removeDocument(id);
        live.delete(id);
      } else {
        const leaves = document(next, id, step);
        index.addDocument(id, step, leaves);
        live.delete(id);
        live.set(id, leaves);
      }
      // Ranked at some steps (the title worths and dead postings counted then are kept meanwhile).
      if (step % 7 !== 0) continue;
      const fresh = new Bm25MemoryIndex();
      for (const [doc, leaves] of live) fresh.addDocument(doc, 1, leaves);
      expect(index.documentFrequencies(words), `step ${step}`).toEqual(fresh.documentFrequencies(words));
      for (const query of [q('plan'), q('cost', 'team'), q('risk', 'budget', 'site')]) {
        const scores = (from: Bm25MemoryIndex) =>
          from.rank(query, 5, covered).map((hit) => [hit.nodeId, hit.score.toFixed(9)]);
        expect(scores(index), `step ${step}`).toEqual(scores(fresh));
      }
    }
  });
});
