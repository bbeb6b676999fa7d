import { ConfigError } from '#shared/errors.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { emitFeatures, type FeatureSink } from '#shared/text/feature-hash.ts';

export const HASHING_EMBEDDER_MODEL = 'offline-hash-v1';

/**
 * The similarity two unrelated texts reach by chance under the hashing embedder: signed feature
 * hashing spreads their cosine around 0 with a standard deviation of about 1/sqrt(dimensions), so
 * three of those (0.19 at 256 dimensions) is where a score starts to mean shared words. Undefined
 * for other embedders, whose chance level is not known in advance.
 */
export function chanceSimilarity(embedder: { model: string; dimensions: number }): number | undefined {
  return embedder.model === HASHING_EMBEDDER_MODEL ? 3 / Math.sqrt(embedder.dimensions) : undefined;
}

/**
 * The offline embedder: feature hashing of character n-grams (CJK characters and character pairs,
 * Latin words and their trigrams) into `dimensions` signed buckets, sublinear term frequency,
 * L2-normalized. Deterministic and dependency-free; similarity is lexical, not semantic, but it works
 * for Chinese without a segmenter. A text without any letter or digit maps to the zero vector.
 *
 * @example
 * const embedder = new HashingEmbedder({ dimensions: 256 });
 * const [v] = await embedder.embed(['项目预算 500 万']);
 */
export class HashingEmbedder implements Embedder {
  readonly model = HASHING_EMBEDDER_MODEL;
  readonly dimensions: number;
  private readonly counts = new FeatureCounts();

  constructor(options: { dimensions: number }) {
    if (!Number.isInteger(options.dimensions) || options.dimensions < 2) {
      throw new ConfigError(
        `providers.embedder.dimensions must be an integer >= 2 (got ${options.dimensions})`,
      );
    }
    this.dimensions = options.dimensions;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embedOne(text));
  }

  /** The synchronous core of `embed`, for callers that embed many texts in a tight loop. */
  embedOne(text: string): number[] {
    const dims = this.dimensions;
    const vector = new Float64Array(dims);
    this.counts.reset();
    emitFeatures(text.normalize('NFKC').toLowerCase(), this.counts);
    this.counts.forEach((hash, weight) => {
      // The top bit chooses the sign, so colliding features cancel out on average instead of piling up.
      const bucket = (hash & 0x7fffffff) % dims;
      vector[bucket] = (vector[bucket] ?? 0) + (hash & 0x80000000 ? -weight : weight);
    });
    let norm = 0;
    for (const x of vector) norm += x * x;
    const out = new Array<number>(dims);
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < dims; i++) out[i] = (vector[i] ?? 0) * scale;
    return out;
  }
}

/**
 * Per-text feature counts in a reused open-addressing table keyed by the 32-bit feature hash; a
 * feature's weight is its kind weight x (1 + ln tf).
 */
class FeatureCounts implements FeatureSink {
  private keys = new Uint32Array(1024);
  private used = new Uint8Array(1024);
  private tf = new Float64Array(1024);
  private kindWeight = new Float64Array(1024);
  private slots: number[] = [];

  reset(): void {
    for (const slot of this.slots) this.used[slot] = 0;
    this.slots.length = 0;
  }

  add(hash: number, weight: number): void {
    if ((this.slots.length + 1) * 2 > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let slot = hash & mask;
    while (this.used[slot] && this.keys[slot] !== hash) slot = (slot + 1) & mask;
    if (this.used[slot]) {
      this.tf[slot] = (this.tf[slot] ?? 0) + 1;
      return;
    }
    this.used[slot] = 1;
    this.keys[slot] = hash;
    this.tf[slot] = 1;
    this.kindWeight[slot] = weight;
    this.slots.push(slot);
  }

  forEach(visit: (hash: number, weight: number) => void): void {
    for (const slot of this.slots) {
      visit(this.keys[slot] ?? 0, (this.kindWeight[slot] ?? 0) * (1 + Math.log(this.tf[slot] ?? 1)));
    }
  }

  private grow(): void {
    const entries = this.slots.map((slot) => ({
      hash: this.keys[slot] ?? 0,
      tf: this.tf[slot] ?? 0,
      weight: this.kindWeight[slot] ?? 0,
    }));
    const size = this.keys.length * 2;
    this.keys = new Uint32Array(size);
    this.used = new Uint8Array(size);
    this.tf = new Float64Array(size);
    this.kindWeight = new Float64Array(size);
    this.slots = [];
    for (const entry of entries) {
      this.add(entry.hash, entry.weight);
      const slot = this.slots[this.slots.length - 1] ?? 0;
      this.tf[slot] = entry.tf;
    }
  }
}
