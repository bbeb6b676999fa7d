import { describe, expect, it } from 'vitest';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
const norm = (v: number[]) => Math.sqrt(cosine(v, v));

describe('HashingEmbedder', () => {
  const embedder = new HashingEmbedder({ dimensions: 256 });

  it('names its model and dimensions', () => {
    expect(embedder.model).toBe('offline-hash-v1');
    expect(embedder.dimensions).toBe(256);
  });

  it('returns the same vector for the same text across instances', async () => {
    const text = '预计投入 500 万预算用于容器化改造 with Kubernetes.';
    const [a] = await embedder.embed([text]);
    const [b] = await new HashingEmbedder({ dimensions: 256 }).embed([text]);
    expect(a).toEqual(b);
  });

  it('returns one unit-length vector of the configured size per text, in order', async () => {
    const vectors = await new HashingEmbedder({ dimensions: 64 }).embed([
      'alpha beta',
      '数据平台',
      'x1 y2 z3',
    ]);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toHaveLength(64);
      expect(norm(v)).toBeCloseTo(1, 10);
    }
    expect(vectors[0]).not.toEqual(vectors[1]);
  });

  it('maps text without letters or digits to the zero vector', async () => {
    const [v] = await embedder.embed(['--- !!! ...']);
    expect(v?.every((x) => x === 0)).toBe(true);
  });

  it('ranks a related Chinese text above an unrelated one', async () => {
    const [query, related, unrelated] = await embedder.embed([
      '容器化改造的预算是多少',
      '预计投入500万预算用于容器化改造，采用Kubernetes。',
      '员工食堂每周五提供水果和酸奶，午餐时间调整为十二点。',
    ]);
    expect(cosine(query ?? [], related ?? [])).toBeGreaterThan(cosine(query ?? [], unrelated ?? []) + 0.2);
  });

  it('ranks a related English text above an unrelated one', async () => {
    const [query, related, unrelated] = await embedder.embed([
      'How much budget goes to the cloud migration?',
      'Most of the budget pays for migrating services to the cloud.',
      'The cafeteria serves fruit and yoghurt every Friday at noon.',
    ]);
    expect(cosine(query ?? [], related ?? [])).toBeGreaterThan(cosine(query ?? [], unrelated ?? []) + 0.2);
  });

  it('matches inflected English words through character trigrams', async () => {
    const [a, b, c] = await embedder.embed(['migrations', 'migrating', 'breakfast']);
    expect(cosine(a ?? [], b ?? [])).toBeGreaterThan(cosine(a ?? [], c ?? []));
  });

  it('ignores case and full-width forms', async () => {
    const [a, b] = await embedder.embed(['Data Platform 2024', 'ｄａｔａ ＰＬＡＴＦＯＲＭ ２０２４']);
    expect(a).toEqual(b);
  });

  it('rejects a dimension that is not a positive integer', () => {
    expect(() => new HashingEmbedder({ dimensions: 0 })).toThrow(/dimensions/);
    expect(() => new HashingEmbedder({ dimensions: 12.5 })).toThrow(/dimensions/);
  });
});
