export type Vector = Float32Array;

/**
 * Where the structure steps find text vectors: `add` embeds the texts not yet held (batched), `get`
 * reads one back. Backed by the configured embedder (`EmbedderVectors` in enrich/structure/).
 */
export interface VectorTable {
  add(texts: Iterable<string>): Promise<void>;
  /** The text's vector; undefined for a text never added (treated as carrying no signal). */
  get(text: string): Vector | undefined;
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
