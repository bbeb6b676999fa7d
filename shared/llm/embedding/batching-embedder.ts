import type { Embedder, EmbedOptions } from '../types.ts';

export interface BatchingOptions {
  /** Most texts per call to the wrapped embedder. */
  batchSize: number;
  /** How long a first pending text waits for others to join its batch; 0: until the current tick ends. */
  maxWaitMs?: number;
}

interface Pending {
  text: string;
  resolve: (vector: number[]) => void;
  reject: (error: unknown) => void;
}

/** Calls made to the wrapped embedder so far, and the texts they carried. */
export interface BatchingStats {
  calls: number;
  texts: number;
}

/**
 * Coalesces the texts of concurrent `embed` calls into batches for the wrapped embedder: everything
 * pending when a batch window closes is cut into equal batches of at most `batchSize`, so that with
 * at least `batchSize` texts pending every call carries at least half of it. Queries and documents
 * are batched apart (asymmetric models embed them differently).
 *
 * @example
 * const embedder = new BatchingEmbedder(new TitanEmbedder({ ... }), { batchSize: 64 });
 * const [a, b] = await Promise.all([embedder.embed(['one']), embedder.embed(['two'])]); // one call
 */
export class BatchingEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  private readonly queues = new Map<'document' | 'query', Pending[]>();
  private readonly counters: BatchingStats = { calls: 0, texts: 0 };

  constructor(
    readonly inner: Embedder,
    private readonly options: BatchingOptions,
  ) {
    this.model = inner.model;
    this.dimensions = inner.dimensions;
  }

  async embed(texts: string[], options?: EmbedOptions): Promise<number[][]> {
    if (texts.length === 0) return [];
    const purpose = options?.purpose ?? 'document';
    let queue = this.queues.get(purpose);
    if (!queue) {
      queue = [];
      this.queues.set(purpose, queue);
      this.schedule(purpose);
    }
    const pending = queue;
    return Promise.all(
      texts.map(
        (text) => new Promise<number[]>((resolve, reject) => pending.push({ text, resolve, reject })),
      ),
    );
  }

  /** Calls and texts sent to the wrapped embedder so far. */
  stats(): BatchingStats {
    return { ...this.counters };
  }

  private schedule(purpose: 'document' | 'query'): void {
    const flush = () => this.flush(purpose);
    if (this.options.maxWaitMs) setTimeout(flush, this.options.maxWaitMs);
    else setImmediate(flush);
  }

  private flush(purpose: 'document' | 'query'): void {
    const queue = this.queues.get(purpose) ?? [];
    this.queues.delete(purpose);
    const calls = Math.ceil(queue.length / this.options.batchSize);
    const size = Math.ceil(queue.length / calls);
    for (let i = 0; i < queue.length; i += size) void this.send(queue.slice(i, i + size), purpose);
  }

  private async send(batch: Pending[], purpose: 'document' | 'query'): Promise<void> {
    this.counters.calls++;
    this.counters.texts += batch.length;
    try {
      const vectors = await this.inner.embed(
        batch.map((p) => p.text),
        { purpose },
      );
      batch.forEach((p, i) => {
        const vector = vectors[i];
        if (vector) p.resolve(vector);
        else
          p.reject(
            new Error(`embedder ${this.model} returned ${vectors.length} vectors for ${batch.length} texts`),
          );
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}
