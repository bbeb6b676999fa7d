import { type Bm25Params, bm25Idf } from './bm25.ts';
import type { RankedNode } from './types.ts';

/** Postgres keeps at most 256 positions per lexeme, so a term frequency fits in 9 bits. */
const TF_SHIFT = 9;
const TF_MASK = (1 << TF_SHIFT) - 1;

export interface IndexedLeaf {
  id: string;
  /** Token count: the BM25 document length. */
  dl: number;
  /** Term -> occurrences (positions in the node's tsvector). */
  terms: Map<string, number>;
}

/**
 * Exact BM25 over the default search scope held in memory: a posting list per term (node slot and
 * tf packed in one number), document lengths, and the corpus totals, maintained document by
 * document as versions become current or documents disappear. Scoring a common term touches its
 * postings in a tight loop instead of tens of thousands of rows in the database.
 */
export class Bm25MemoryIndex {
  private nodeIds: string[] = [];
  private lengths: number[] = [];
  private alive: boolean[] = [];
  private readonly postings = new Map<string, number[]>();
  private readonly documents = new Map<string, { version: number; slots: number[] }>();
  private liveNodes = 0;
  private totalLength = 0;
  private deadSlots = 0;

  /** The version of each indexed document. */
  versions(): Map<string, number> {
    return new Map([...this.documents].map(([id, doc]) => [id, doc.version]));
  }

  get size(): number {
    return this.liveNodes;
  }

  /** Adds (or replaces) a document's leaves for one version. */
  addDocument(documentId: string, version: number, leaves: IndexedLeaf[]): void {
    this.removeDocument(documentId);
    const slots: number[] = [];
    for (const leaf of leaves) {
      const slot = this.nodeIds.length;
      this.nodeIds.push(leaf.id);
      this.lengths.push(leaf.dl);
      this.alive.push(true);
      slots.push(slot);
      this.liveNodes += 1;
      this.totalLength += leaf.dl;
      for (const [term, tf] of leaf.terms) {
        let list = this.postings.get(term);
        if (!list) {
          list = [];
          this.postings.set(term, list);
        }
        list.push((slot << TF_SHIFT) | Math.min(tf, TF_MASK));
      }
    }
    this.documents.set(documentId, { version, slots });
  }

  /** Drops a document's leaves from the scope (their postings are skipped, then compacted away). */
  removeDocument(documentId: string): void {
    const doc = this.documents.get(documentId);
    if (!doc) return;
    for (const slot of doc.slots) {
      if (!this.alive[slot]) continue;
      this.alive[slot] = false;
      this.liveNodes -= 1;
      this.totalLength -= this.lengths[slot] ?? 0;
      this.deadSlots += 1;
    }
    this.documents.delete(documentId);
    if (this.deadSlots > 10_000 && this.deadSlots > this.liveNodes) this.compact();
  }

  /**
   * The `limit` best leaves for the distinct query terms by BM25 (see `bm25Score`), ties by node id;
   * highlights are the query terms each leaf contains (the first 32 terms are tracked).
   */
  rank(terms: string[], limit: number, params: Bm25Params): RankedNode[] {
    const unique = [...new Set(terms)];
    const n = this.liveNodes;
    const avgdl = n > 0 ? this.totalLength / n : 0;
    const scores = new Float64Array(this.nodeIds.length);
    const masks = new Uint32Array(this.nodeIds.length);
    const touched: number[] = [];
    const { k1, b } = params;
    unique.forEach((term, t) => {
      const list = this.postings.get(term);
      if (!list) return;
      let df = 0;
      for (const packed of list) if (this.alive[packed >>> TF_SHIFT]) df += 1;
      if (df === 0) return;
      const idf = bm25Idf(n, df);
      const bit = t < 32 ? 1 << t : 0;
      for (const packed of list) {
        const slot = packed >>> TF_SHIFT;
        if (!this.alive[slot]) continue;
        const tf = packed & TF_MASK;
        const norm = k1 * (1 - b + (b * (this.lengths[slot] ?? 0)) / (avgdl || 1));
        // idf > 0 and tf >= 1, so a touched slot never scores 0.
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] = (scores[slot] ?? 0) + (idf * tf * (k1 + 1)) / (tf + norm);
        masks[slot] = (masks[slot] ?? 0) | bit;
      }
    });
    return this.best(touched, scores, limit).map((slot) => {
      const mask = masks[slot] ?? 0;
      return {
        nodeId: this.nodeIds[slot] ?? '',
        score: scores[slot] ?? 0,
        highlights: unique.filter((_, t) => t < 32 && (mask & (1 << t)) !== 0),
      };
    });
  }

  /** The `limit` best slots by score, then node id, without sorting every candidate. */
  private best(slots: number[], scores: Float64Array, limit: number): number[] {
    const ids = this.nodeIds;
    const better = (a: number, b: number): boolean => {
      const diff = (scores[a] ?? 0) - (scores[b] ?? 0);
      if (diff !== 0) return diff > 0;
      return (ids[a] ?? '') < (ids[b] ?? '');
    };
    const top: number[] = [];
    for (const slot of slots) {
      if (top.length === limit) {
        const last = top[limit - 1];
        if (last === undefined || !better(slot, last)) continue;
        top.pop();
      }
      let i = top.length;
      top.push(slot);
      while (i > 0 && better(slot, top[i - 1] ?? 0)) {
        top[i] = top[i - 1] ?? 0;
        i -= 1;
      }
      top[i] = slot;
    }
    return top;
  }

  private compact(): void {
    const remap = new Map<number, number>();
    const ids: string[] = [];
    const lengths: number[] = [];
    this.alive.forEach((live, slot) => {
      if (!live) return;
      remap.set(slot, ids.length);
      ids.push(this.nodeIds[slot] ?? '');
      lengths.push(this.lengths[slot] ?? 0);
    });
    for (const [term, list] of this.postings) {
      const kept: number[] = [];
      for (const packed of list) {
        const slot = remap.get(packed >>> TF_SHIFT);
        if (slot !== undefined) kept.push((slot << TF_SHIFT) | (packed & TF_MASK));
      }
      if (kept.length) this.postings.set(term, kept);
      else this.postings.delete(term);
    }
    for (const doc of this.documents.values()) doc.slots = doc.slots.map((s) => remap.get(s) ?? -1);
    this.nodeIds = ids;
    this.lengths = lengths;
    this.alive = ids.map(() => true);
    this.deadSlots = 0;
  }
}
