import { reasonOf } from '#shared/errors.ts';
import type { Embedder } from '#shared/llm/types.ts';
import type { Vector, VectorTable } from '#shared/parse/structure/vectors.ts';

/** Texts per embedder call: batched, yet bounded so a huge document does not hold every request at once. */
const BATCH = 256;

/**
 * Embeds distinct texts in batched calls and keeps the vectors as Float32Array (half the memory of
 * number[]). Texts already embedded are skipped. When the embedder fails, the rest of the texts get
 * no vector and one warning is recorded: structure then follows sizes alone, and the document still
 * parses (its embeddings step reports a lasting embedder failure on its own).
 */
export class EmbedderVectors implements VectorTable {
  private readonly vectors = new Map<string, Vector>();
  private failed = false;

  constructor(
    private readonly embedder: Embedder,
    private readonly warnings: string[] = [],
  ) {}

  /** Embeds the texts not yet in the table, `BATCH` at a time. */
  async add(texts: Iterable<string>): Promise<void> {
    if (this.failed) return;
    const pending = [...new Set(texts)].filter((text) => text.trim() !== '' && !this.vectors.has(text));
    for (let start = 0; start < pending.length; start += BATCH) {
      const batch = pending.slice(start, start + BATCH);
      let vectors: number[][];
      try {
        vectors = await this.embedder.embed(batch);
      } catch (error) {
        this.failed = true;
        this.warnings.push(`structure by length only, the embedder failed: ${reasonOf(error)}`);
        return;
      }
      batch.forEach((text, i) => {
        const vector = vectors[i];
        if (vector) this.vectors.set(text, Float32Array.from(vector));
      });
    }
  }

  get(text: string): Vector | undefined {
    return this.vectors.get(text);
  }
}
