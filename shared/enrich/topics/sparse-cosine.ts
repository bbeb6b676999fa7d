/** One dimension's nonzero values: which vector (slot) holds which value. */
interface Posting {
  slots: Int32Array;
  values: Float32Array;
  length: number;
}

/**
 * Vectors kept by dimension (each dimension lists the vectors with a nonzero value there), so the
 * cosine of a query with every vector costs the postings of the query's nonzero dimensions only:
 * for the hashing embedder's short names (~16 of 256 dimensions) about a sixteenth of a full scan.
 * A dense vector costs what a scan does. Values are float4, as pgvector keeps them.
 *
 * @example const index = new SparseCosine(256); index.add('a', vector); index.above(query, 0.85) // ['a']
 */
export class SparseCosine {
  private readonly postings: Posting[];
  private readonly ids: string[] = [];
  /** Per slot; 0 once removed. */
  private readonly norms: number[] = [];
  private readonly slots = new Map<string, number>();

  constructor(readonly dimensions: number) {
    this.postings = Array.from({ length: dimensions }, () => ({
      slots: new Int32Array(8),
      values: new Float32Array(8),
      length: 0,
    }));
  }

  /** Adds (or replaces) `id`'s vector; one without a direction is left out (no cosine). */
  add(id: string, vector: readonly number[]): void {
    this.remove(id);
    if (vector.length !== this.dimensions) return;
    let sum = 0;
    for (const x of vector) sum += Math.fround(x) * Math.fround(x);
    if (sum === 0) return;
    const slot = this.ids.length;
    this.ids.push(id);
    this.norms.push(Math.sqrt(sum));
    this.slots.set(id, slot);
    for (let d = 0; d < vector.length; d++) {
      const value = vector[d] as number;
      if (value !== 0) push(this.postings[d] as Posting, slot, value);
    }
  }

  remove(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    this.norms[slot] = 0;
    this.slots.delete(id);
  }

  /** The ids whose cosine with `query` is `floor` or above (double precision over float4 values). */
  above(query: readonly number[], floor: number): string[] {
    const norm = Math.hypot(...query);
    if (norm === 0 || query.length !== this.dimensions) return [];
    const dots = new Float64Array(this.ids.length);
    for (let d = 0; d < query.length; d++) {
      const q = query[d] as number;
      if (q === 0) continue;
      const { slots, values, length } = this.postings[d] as Posting;
      for (let k = 0; k < length; k++) {
        const slot = slots[k] as number;
        dots[slot] = (dots[slot] as number) + q * (values[k] as number);
      }
    }
    const found: string[] = [];
    for (let slot = 0; slot < dots.length; slot++) {
      const slotNorm = this.norms[slot] as number;
      if (slotNorm > 0 && (dots[slot] as number) / (norm * slotNorm) >= floor)
        found.push(this.ids[slot] as string);
    }
    return found;
  }
}

function push(posting: Posting, slot: number, value: number): void {
  if (posting.length === posting.slots.length) {
    const slots = new Int32Array(posting.length * 2);
    slots.set(posting.slots);
    const values = new Float32Array(posting.length * 2);
    values.set(posting.values);
    posting.slots = slots;
    posting.values = values;
  }
  posting.slots[posting.length] = slot;
  posting.values[posting.length] = value;
  posting.length += 1;
}

/** The cosine of two vectors in double precision (NaN when one has no direction). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  for (let d = 0; d < a.length; d++) dot += (a[d] as number) * (b[d] as number);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}
