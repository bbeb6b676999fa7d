import { describe, expect, it } from 'vitest';
import { expandQuery, expansionTerms, MAX_EXPANSION_SHARE, relevanceModel } from '#shared/search/feedback.ts';

const counts = (terms: Record<string, number>) =>
  new Map(Object.entries(terms).map(([term, tf]) => [term, { tf, titleTf: 0 }]));

describe('relevanceModel', () => {
  it('mixes the leaves term distributions by the softmax of their scores', () => {
    const model = relevanceModel([
      { terms: counts({ bone: 2, sclerostin: 2 }), score: 3 },
      { terms: counts({ bone: 1, cortisol: 3 }), score: 1 },
    ]);
    const p1 = Math.exp(0) / (Math.exp(0) + Math.exp(-2));
    const p2 = 1 - p1;
    const expected = new Map([
      ['bone', p1 * 0.5 + p2 * 0.25],
      ['sclerostin', p1 * 0.5],
      ['cortisol', p2 * 0.75],
    ]);
    expect(model.map(([term]) => term)).toEqual(['bone', 'sclerostin', 'cortisol']);
    for (const [term, p] of model) expect(p).toBeCloseTo(expected.get(term) ?? Number.NaN, 12);
    expect(model.reduce((sum, [, p]) => sum + p, 0)).toBeCloseTo(1, 12);
  });

  it('is empty without leaves', () => {
    expect(relevanceModel([])).toEqual([]);
  });
});

describe('expandQuery', () => {
  const model: [string, number][] = [
    ['bone', 0.4],
    ['cell', 0.3],
    ['sclerostin', 0.2],
    ['fractur', 0.1],
  ];
  const query = [
    { term: 'sclerostin', weight: 1 },
    { term: 'hip', weight: 1 },
  ];

  it('keeps the original weights and gives the expansion (1 - a) / a of their total, by probability', () => {
    const expanded = expandQuery(query, model, { documents: 5, terms: 2, originalWeight: 0.8 });
    const weights = Object.fromEntries(expanded.map((t) => [t.term, t.weight]));
    // Expansion total = (0.2 / 0.8) * 2 = 0.5, split 0.4 : 0.3 between bone and cell.
    expect(weights.sclerostin).toBeCloseTo(1, 12);
    expect(weights.hip).toBeCloseTo(1, 12);
    expect(weights.bone).toBeCloseTo((0.5 * 0.4) / 0.7, 12);
    expect(weights.cell).toBeCloseTo((0.5 * 0.3) / 0.7, 12);
    expect(weights.fractur).toBeUndefined();
  });

  it('adds up a term that is both in the query and in the model', () => {
    const expanded = expandQuery(query, model, { documents: 5, terms: 3, originalWeight: 0.5 });
    const weight = expanded.find((t) => t.term === 'sclerostin')?.weight ?? 0;
    expect(weight).toBeCloseTo(1 + (2 * 0.2) / 0.9, 12);
  });

  it('leaves out terms too many leaves hold, and the query alone when nothing is left', () => {
    const share = (term: string) => (term === 'cell' ? MAX_EXPANSION_SHARE + 0.01 : 0.01);
    const expanded = expandQuery(query, model, { documents: 5, terms: 2, originalWeight: 0.7 }, share);
    // cell is left out, so the two added are bone and sclerostin (already in the query).
    expect(expanded.map((t) => t.term)).toEqual(['sclerostin', 'hip', 'bone']);
    expect(expandQuery(query, model, { documents: 5, terms: 0, originalWeight: 0.7 })).toEqual(query);
  });

  it('expansionTerms are what expandQuery adds to the query', () => {
    const options = { documents: 5, terms: 3, originalWeight: 0.5 };
    const added = expansionTerms(query, model, options);
    expect(added.map((t) => t.term)).toEqual(['bone', 'cell', 'sclerostin']);
    const summed = new Map(query.map((t) => [t.term, t.weight]));
    for (const { term, weight } of added) summed.set(term, (summed.get(term) ?? 0) + weight);
    const expanded = expandQuery(query, model, options);
    expect(expanded.map((t) => t.term)).toEqual([...summed.keys()]);
    for (const t of expanded) expect(t.weight).toBeCloseTo(summed.get(t.term) ?? Number.NaN, 12);
    expect(expansionTerms(query, model, { ...options, terms: 0 })).toEqual([]);
  });
});
