import { describe, expect, it } from 'vitest';
import { BatchingEmbedder } from '#shared/llm/embedding/batching-embedder.ts';
import type { Embedder, EmbedOptions } from '#shared/llm/types.ts';

class RecordingEmbedder implements Embedder {
  readonly model = 'recording';
  readonly dimensions = 2;
  readonly calls: Array<{ texts: string[]; purpose?: string }> = [];
  failNext = false;

  async embed(texts: string[], options?: EmbedOptions): Promise<number[][]> {
    this.calls.push({ texts, purpose: options?.purpose });
    if (this.failNext) {
      this.failNext = false;
      throw new Error('boom');
    }
    return texts.map((t) => [t.length, 1]);
  }
}

describe('BatchingEmbedder', () => {
  it('joins concurrent calls into batches of at least half the batch size', async () => {
    const inner = new RecordingEmbedder();
    const embedder = new BatchingEmbedder(inner, { batchSize: 64 });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => embedder.embed(['x'.repeat(i)])));
    expect(results.map((r) => r[0]?.[0])).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(inner.calls.map((c) => c.texts.length)).toEqual([50, 50]);
    expect(embedder.stats()).toEqual({ calls: 2, texts: 100 });
  });

  it('batches queries apart from documents', async () => {
    const inner = new RecordingEmbedder();
    const embedder = new BatchingEmbedder(inner, { batchSize: 32 });
    await Promise.all([embedder.embed(['doc']), embedder.embed(['query'], { purpose: 'query' })]);
    expect(inner.calls).toEqual([
      { texts: ['doc'], purpose: 'document' },
      { texts: ['query'], purpose: 'query' },
    ]);
  });

  it('rejects only the callers whose batch failed', async () => {
    const inner = new RecordingEmbedder();
    const embedder = new BatchingEmbedder(inner, { batchSize: 2 });
    inner.failNext = true;
    const outcomes = await Promise.allSettled([embedder.embed(['a', 'b']), embedder.embed(['c', 'd'])]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
  });
});
