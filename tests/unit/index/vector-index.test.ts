import { describe, expect, it } from 'vitest';
import {
  buildMemoryMb,
  vectorExpression,
  vectorIndexName,
  vectorPredicate,
} from '#shared/index/vector-index.ts';

describe('vector index SQL', () => {
  it('casts the column to the fixed dimension', () => {
    expect(vectorExpression(256)).toBe('(embedding::vector(256))');
    expect(vectorExpression(128, 'e.embedding')).toBe('(e.embedding::vector(128))');
  });

  it('inlines a validated model in the predicate', () => {
    expect(vectorPredicate({ model: 'amazon.titan-embed-text-v2:0', dimensions: 1024 }, 'e')).toBe(
      "e.model = 'amazon.titan-embed-text-v2:0' AND e.dimensions = 1024",
    );
  });

  it('rejects a model id that could break out of the SQL literal', () => {
    expect(() => vectorPredicate({ model: "x' OR '1'='1", dimensions: 8 })).toThrow(/model id/);
    expect(() => vectorIndexName({ model: 'a b', dimensions: 8 })).toThrow(/model id/);
  });

  it('rejects dimensions HNSW cannot index', () => {
    expect(() => vectorExpression(0)).toThrow(/dimensions/);
    expect(() => vectorExpression(4096)).toThrow(/dimensions/);
  });

  it('names indexes distinctly per model and dimension within 63 characters', () => {
    const names = [
      vectorIndexName({ model: 'offline-hash-v1', dimensions: 256 }),
      vectorIndexName({ model: 'offline.hash.v1', dimensions: 256 }),
      vectorIndexName({ model: 'offline-hash-v1', dimensions: 128 }),
      vectorIndexName({ model: `${'very-long-model-name/'.repeat(5)}v9`, dimensions: 1536 }),
    ];
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(/^[a-z0-9_]{1,63}$/);
  });

  it('sizes the memory of a bulk build to hold the graph, within 64 MB .. 1 GB', () => {
    // Measured: a graph of 256 dimensions at m 8 takes 1,401 bytes a vector.
    const measured = (vectors: number) => (vectors * 1401) / 2 ** 20;
    for (const vectors of [70_000, 200_000, 500_000]) {
      expect(buildMemoryMb(vectors, 256, 8)).toBeGreaterThan(measured(vectors));
      expect(buildMemoryMb(vectors, 256, 8)).toBeLessThan(measured(vectors) * 1.5);
    }
    // 10,000 documents of 50 paragraphs (~700,000 vectors) fit the most it gives.
    expect(buildMemoryMb(700_000, 256, 8)).toBe(1024);
    expect(measured(700_000)).toBeLessThan(1024);
    expect(buildMemoryMb(0, 256, 8)).toBe(64);
    expect(buildMemoryMb(10_000_000, 1024, 16)).toBe(1024);
    // Larger vectors and more links take more.
    expect(buildMemoryMb(100_000, 1024, 8)).toBeGreaterThan(buildMemoryMb(100_000, 256, 8));
    expect(buildMemoryMb(100_000, 256, 16)).toBeGreaterThan(buildMemoryMb(100_000, 256, 8));
  });
});
