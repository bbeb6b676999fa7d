import { reasonOf } from '#shared/errors.ts';
import type { Embedder } from '#shared/llm/types.ts';

export type Vector = Float32Array;

/** Texts per embedder call: batched, yet bounded so a huge document does not hold every request at once. */
const BATCH = 256;

/**
 * Embeds distinct texts in batched calls and keeps the vectors as Float32Array (half the memory of
 * number[]). Texts already embedded are skipped. When the embedder fails, the rest of the texts get
 * no vector and one warning is recorded: structure then follows sizes alone, and the document still
 * parses (its embeddings step reports a lasting embedder failure on its own).
 */
export class VectorTable {
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

  /** The text's vector; undefined for a text never added (treated as carrying no signal). */
  get(text: string): Vector | undefined {
    return this.vectors.get(text);
  }
}

/** Cosine similarity; 0 when either side is missing or the zero vector. */
export function cosine(a: Vector | undefined, b: Vector | undefined): number {
  if (!a || !b) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** The sum of the vectors (direction is all cosine needs); undefined when none is present. */
export function sumVectors(vectors: readonly (Vector | undefined)[]): Vector | undefined {
  let out: Vector | undefined;
  for (const v of vectors) {
    if (!v) continue;
    out ??= new Float32Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = (out[i] ?? 0) + (v[i] ?? 0);
  }
  return out;
}
