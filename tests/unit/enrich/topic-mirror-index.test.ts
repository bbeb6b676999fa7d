import { describe, expect, it } from 'vitest';
import { cosine, SparseCosine } from '#shared/enrich/topics/sparse-cosine.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import { mergeKeys, overlapKeys, termOverlap, topicTerms } from '#shared/text/topics.ts';

const NAMES = [
  'Project Borealis',
  'borealis',
  'Borealis Data',
  'data platform',
  'Data Platforms',
  'data team',
  'platform',
  'T cell',
  'regulatory T cells',
  'cell',
  'DNA methylation',
  'methylation',
  'whole-genome DNA methylation',
  '数据平台',
  '平台',
  'ＡＩ平台',
  'Refund  Policies',
  'refund policy',
  'The',
  '3.5',
];

describe('overlapKeys', () => {
  it('gives every two names whose terms overlap at all a key in common', () => {
    for (const a of NAMES)
      for (const b of NAMES) {
        const shared = overlapKeys(a).some((key) => overlapKeys(b).includes(key));
        if (termOverlap(a, b) > 0) expect(shared, `${a} / ${b}`).toBe(true);
      }
  });
});

describe('mergeKeys', () => {
  // Names of a few words drawn from a small vocabulary: most pairs share some, few reach a high share.
  const WORDS = [
    'data',
    'Platform',
    'team',
    'cell',
    'Borealis',
    'policy',
    '系统',
    '数据',
    '网络',
    '安全',
    '平台',
  ];
  const generated = Array.from({ length: 300 }, (_, i) => {
    const count = 1 + (i % 4);
    return Array.from({ length: count }, (_, j) => WORDS[(i * 7 + j * 3 + (i >> 3)) % WORDS.length]).join(
      /[a-z]/i.test(WORDS[i % WORDS.length] ?? '') ? ' ' : '',
    );
  });
  const names = [...NAMES, ...generated];
  const index = new Map<string, number>();
  for (const name of names) for (const key of overlapKeys(name)) index.set(key, (index.get(key) ?? 0) + 1);
  const sizeOf = (key: string) => index.get(key) ?? 0;

  it('looks up a key of every name whose terms can reach the threshold, as a scan over all names finds', () => {
    let reached = 0;
    for (const threshold of [0, 0.3, 0.5, 0.85, 1])
      for (const a of names) {
        const keys = new Set(mergeKeys(topicTerms(a), threshold, sizeOf));
        for (const b of names) {
          const score = termOverlap(b, a);
          if (!(score > 0) || score < threshold) continue;
          reached += 1;
          expect(
            overlapKeys(b).some((key) => keys.has(key)),
            `${a} / ${b} (${score.toFixed(2)} at ${threshold})`,
          ).toBe(true);
        }
      }
    expect(reached).toBeGreaterThan(1000);
  });

  it('looks up fewer names than every shared token at a high threshold', () => {
    const looked = (threshold: number) =>
      names.reduce(
        (sum, a) => sum + mergeKeys(topicTerms(a), threshold, sizeOf).reduce((n, k) => n + sizeOf(k), 0),
        0,
      );
    expect(looked(0.85)).toBeLessThan(looked(0) / 2);
  });
});

describe('SparseCosine', () => {
  it('finds exactly the vectors at or above a cosine, as a scan over them does', async () => {
    const embedder = new HashingEmbedder({ dimensions: 64 });
    const vectors = await embedder.embed(NAMES);
    const index = new SparseCosine(64);
    for (const [i, name] of NAMES.entries()) index.add(name, vectors[i] ?? []);
    for (const [q, query] of vectors.entries())
      for (const floor of [0.2, 0.5, 0.849, 0.99]) {
        const scanned = NAMES.filter((_, i) => cosine(query, vectors[i] ?? []) >= floor - 1e-6);
        const found = index.above(query, floor);
        // float4 values against double: a vector within 1e-6 of the floor may go either way.
        for (const name of found) expect(scanned, `${NAMES[q]} ${floor}`).toContain(name);
        const sure = NAMES.filter((_, i) => cosine(query, vectors[i] ?? []) >= floor + 1e-6);
        for (const name of sure) expect(found, `${NAMES[q]} ${floor}`).toContain(name);
      }
    expect(index.above(vectors[0] ?? [], 0.99)).toEqual(['Project Borealis']);
  });

  it('forgets a removed vector, takes a replaced one, and leaves out one without a direction', () => {
    const index = new SparseCosine(3);
    index.add('a', [1, 0, 0]);
    index.add('b', [0.9, 0.1, 0]);
    index.add('zero', [0, 0, 0]);
    expect(index.above([1, 0, 0], 0.9).sort()).toEqual(['a', 'b']);
    index.remove('a');
    expect(index.above([1, 0, 0], 0.9)).toEqual(['b']);
    index.add('b', [0, 1, 0]);
    expect(index.above([1, 0, 0], 0.9)).toEqual([]);
    expect(index.above([0, 1, 0], 0.9)).toEqual(['b']);
    expect(index.above([0, 0, 0], 0)).toEqual([]);
  });
});
