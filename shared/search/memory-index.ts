import { type Bm25Params, bm25TermWeight, distinctTerms, type QueryTerm, termField } from './bm25.ts';
import { compareCodePoints, comparePositions } from './tie-break.ts';
import { titleShare, withTitleCoverage } from './title-coverage.ts';
import type { TermCount } from './tsvector-text.ts';
import type { RankedNode } from './types.ts';

/**
 * Postgres keeps at most 256 positions per lexeme, so a term frequency fits in 9 bits: a posting
 * packs slot * 2^18 + titleTf * 2^9 + tf in one number (exact below 2^53, so up to 2^35 slots).
 */
const TF_BITS = 512;
const SLOT_UNIT = TF_BITS * TF_BITS;
const TF_MAX = TF_BITS - 1;

function pack(slot: number, count: TermCount): number {
  return slot * SLOT_UNIT + Math.min(count.titleTf, TF_MAX) * TF_BITS + Math.min(count.tf, TF_MAX);
}

function slotOf(packed: number): number {
  return Math.floor(packed / SLOT_UNIT);
}

export interface IndexedLeaf {
  id: string;
  /** Word count: the BM25 document length of the word field. */
  dl: number;
  /** CJK character gram count: the length of the gram field (0 when omitted). */
  gl?: number;
  /** The leaf's ordinal in its document version (its place among the leaves when omitted). */
  ordinal?: number;
  /** Term -> occurrences (positions in the node's tsvector), all and in the title. */
  terms: Map<string, TermCount>;
}

/**
 * The part of the index a search sees: the documents of the readable collections, and of those the
 * chosen ones (undefined: every collection, every document).
 */
export interface LeafScope {
  collections?: readonly string[];
  documentIds?: readonly string[];
}

/** Scope views kept at once (`Bm25MemoryIndex.visible`): one per asking team is plenty. */
const MAX_VIEWS = 16;

/** Which slots are live leaves a search sees (true or 1). */
type SlotMask = ArrayLike<boolean | number>;

/**
 * A term's packed postings: an array appended to as documents come, or a view of a snapshot's
 * postings (`fromImage`) until a document adds to it.
 */
type Postings = number[] | Float64Array;

/** Snapshot lists this short are copied into arrays: a view costs more memory than a few numbers. */
const SHORT_LIST = 8;

/** What the index holds of a document besides its leaves; a change of any of it reloads them. */
export interface DocumentStamp {
  version: number;
  collection: string;
  /** Its key, which orders leaves of equal score (a rename changes it, not the version). */
  key: string;
  /** The analysis its leaves' terms come from (a re-analysis rewrites them in place). */
  analyzerVersion: number;
}

/** A document of an `IndexImage`: its stamp and how many of the image's leaves (in order) are its. */
export interface ImageDocument extends DocumentStamp {
  id: string;
  leaves: number;
}

/**
 * The index as flat arrays, live leaves only, in document order: what a snapshot stores
 * (`memory-snapshot.ts`). Per leaf: id, ordinal, word and gram lengths; per term: how many of
 * `postings` (packed, by term in `terms` order) are its.
 */
export interface IndexImage {
  documents: ImageDocument[];
  nodeIds: string[];
  ordinals: Uint32Array;
  lengths: Uint32Array;
  gramLengths: Uint32Array;
  terms: string[];
  counts: Uint32Array;
  postings: Float64Array;
}

/** The live leaves a search sees and the corpus statistics over them alone. */
interface Visible {
  alive: SlotMask;
  n: number;
  totalLength: number;
  totalGramLength: number;
  df(term: string): number;
}

/**
 * Exact BM25 over the default search scope held in memory: a posting list per term (node slot and
 * tf packed in one number), document lengths, and the corpus totals, maintained document by
 * document as versions become current or documents disappear. Scoring a common term touches its
 * postings in a tight loop instead of tens of thousands of rows in the database.
 */
export class Bm25MemoryIndex {
  private nodeIds: string[] = [];
  /** Per slot, the document key and ordinal that order equal scores (`comparePositions`). */
  private documentKeys: string[] = [];
  private ordinals: number[] = [];
  private lengths: number[] = [];
  private gramLengths: number[] = [];
  private alive: boolean[] = [];
  private readonly postings = new Map<string, Postings>();
  private readonly documents = new Map<string, DocumentStamp & { slots: number[] }>();
  private liveNodes = 0;
  private totalLength = 0;
  private totalGramLength = 0;
  private deadSlots = 0;
  /**
   * Per term, its postings of dead slots as counted when `removed` held `removals` ranges: a term's df
   * over the whole index is its list's length less those and the ones in the ranges removed since,
   * counted by binary search (a list is in slot order). A search after a document was added or
   * replaced reads df without a pass over each term's list.
   */
  private deadPostings = new Map<string, { dead: number; removals: number }>();
  /** The slot ranges of the documents removed since the last compaction (a document's slots are consecutive). */
  private removed: [first: number, last: number][] = [];
  /** Views of the scopes asked since the last change, by scope (`visible`). */
  private readonly views = new Map<string, Visible>();
  /** Bumped by every change, so a `Bm25Scorer` knows when its slots no longer mean the same leaves. */
  private generation = 0;
  /** Each slot's BM25 length norm per field and parameters since the last change (`lengthNorms`). */
  private readonly norms = new Map<string, Float64Array>();
  /**
   * Per slot, the distinct terms of its title and section path (weight A), one array shared by the
   * leaves of a document that have the same ones (`titleTermsOfSlots`); undefined until title
   * coverage first asks for them, then kept up to date document by document.
   */
  private titleTerms?: TitleTerms[];
  /**
   * Per scope and idf exponents, each slot's title worth once a search computed it (NaN until then:
   * `Bm25Scorer.fused`), kept until the index changes.
   */
  private readonly titleWorths = new Map<string, Float64Array>();

  /** The stamp (version, collection, key, analysis) of each indexed document. */
  versions(): Map<string, DocumentStamp> {
    const stamps = new Map<string, DocumentStamp>();
    for (const [id, { version, collection, key, analyzerVersion }] of this.documents)
      stamps.set(id, { version, collection, key, analyzerVersion });
    return stamps;
  }

  /** Number of live leaves in the scope. */
  size(scope?: LeafScope): number {
    return this.visible(scope).n;
  }

  /**
   * Adds (or replaces) a document's leaves for one version, in its collection (`default` when
   * omitted), as the analysis `analyzerVersion` (0 when omitted) indexed them; its key (its id when
   * omitted) and each leaf's ordinal order leaves of equal score.
   */
  addDocument(
    documentId: string,
    version: number,
    leaves: IndexedLeaf[],
    {
      collection = 'default',
      key = documentId,
      analyzerVersion = 0,
    }: { collection?: string; key?: string; analyzerVersion?: number } = {},
  ): void {
    this.removeDocument(documentId);
    this.changed();
    const slots: number[] = [];
    // The leaves of one section share its title and path: one array for their title terms.
    let previous: TitleTerms;
    for (const [place, leaf] of leaves.entries()) {
      const slot = this.nodeIds.length;
      this.nodeIds.push(leaf.id);
      this.documentKeys.push(key);
      this.ordinals.push(leaf.ordinal ?? place);
      this.lengths.push(leaf.dl);
      this.gramLengths.push(leaf.gl ?? 0);
      this.alive.push(true);
      slots.push(slot);
      if (this.titleTerms) {
        previous = sharedTitle(leaf.terms, previous);
        this.titleTerms.push(previous);
      }
      this.liveNodes += 1;
      this.totalLength += leaf.dl;
      this.totalGramLength += leaf.gl ?? 0;
      for (const [term, count] of leaf.terms) {
        let list = this.postings.get(term);
        if (!Array.isArray(list)) {
          list = list ? Array.from(list) : [];
          this.postings.set(term, list);
        }
        list.push(pack(slot, count));
      }
    }
    this.documents.set(documentId, { version, collection, key, analyzerVersion, slots });
  }

  /** Drops a document's leaves from the scope (their postings are skipped, then compacted away). */
  removeDocument(documentId: string): void {
    const doc = this.documents.get(documentId);
    if (!doc) return;
    this.changed();
    if (doc.slots.length > 0) this.removed.push([doc.slots[0] ?? 0, doc.slots.at(-1) ?? 0]);
    for (const slot of doc.slots) {
      if (!this.alive[slot]) continue;
      this.alive[slot] = false;
      this.liveNodes -= 1;
      this.totalLength -= this.lengths[slot] ?? 0;
      this.totalGramLength -= this.gramLengths[slot] ?? 0;
      this.deadSlots += 1;
    }
    this.documents.delete(documentId);
    if (this.deadSlots > 10_000 && this.deadSlots > this.liveNodes) this.compact();
  }

  /** A new generation: scorers begun before it stop, and the scope views are computed afresh. */
  private changed(): void {
    this.generation += 1;
    this.views.clear();
    this.norms.clear();
    this.titleWorths.clear();
  }

  /**
   * `k1 * (1 - b + b * length / average)` of every slot for one field, kept until the index changes:
   * scoring a common term reads it for tens of thousands of postings per query.
   */
  private lengthNorms(gram: boolean, k1: number, b: number, average: number): Float64Array {
    const key = `${gram}:${k1}:${b}:${average}`;
    let norms = this.norms.get(key);
    if (!norms) {
      const lengths = gram ? this.gramLengths : this.lengths;
      norms = new Float64Array(lengths.length);
      for (let slot = 0; slot < lengths.length; slot++)
        norms[slot] = k1 * (1 - b + (b * (lengths[slot] ?? 0)) / (average || 1));
      // A few scopes' averages at most; more (many collections searched apart) start over.
      if (this.norms.size >= 8) this.norms.clear();
      this.norms.set(key, norms);
    }
    return norms;
  }

  /**
   * Each slot's title terms (`titleTerms`): on first use read from the postings (an index read back
   * from its snapshot holds postings only; 0.6 s at 500,000 paragraphs), later added to by each
   * document.
   */
  private titleTermsOfSlots(): readonly TitleTerms[] {
    if (this.titleTerms) return this.titleTerms;
    const slots = this.nodeIds.length;
    // Two passes over the postings, allocating nothing per posting: how many title terms each slot
    // has, then each term into its slot's place of one flat array.
    const starts = new Uint32Array(slots + 1);
    for (const list of this.postings.values()) countTitlePostings(list, starts);
    let total = 0;
    for (let slot = 0; slot <= slots; slot++) {
      const count = starts[slot] ?? 0;
      starts[slot] = total;
      total += count;
    }
    const flat = new Array<string>(total);
    const next = starts.slice();
    for (const [term, list] of this.postings) placeTitlePostings(list, term, next, flat);
    // A slot's terms came in the postings' order, so a leaf with its previous leaf's title and path
    // (the next paragraph of a section) has the same run of terms: it shares that one's array.
    const titles: TitleTerms[] = new Array(slots).fill(undefined);
    let previous: readonly string[] = [];
    for (let slot = 0; slot < slots; slot++) {
      const start = starts[slot] ?? 0;
      const end = starts[slot + 1] ?? 0;
      if (end === start || !this.alive[slot]) continue;
      if (!sameRun(previous, flat, start, end)) previous = flat.slice(start, end);
      titles[slot] = previous;
    }
    this.titleTerms = titles;
    return titles;
  }

  /** The title worths searches of the scope computed since the last change (`titleWorths`). */
  private titleWorthsOf(params: Bm25Params, scope: string): Float64Array {
    const key = `${scope}|${params.idfExponent ?? 1}|${params.grams ? (params.grams.idfExponent ?? 1) : '-'}`;
    let worths = this.titleWorths.get(key);
    if (!worths) {
      if (this.titleWorths.size >= 8) this.titleWorths.clear();
      worths = new Float64Array(this.nodeIds.length).fill(Number.NaN);
      this.titleWorths.set(key, worths);
    }
    return worths;
  }

  /** Number of live leaves in the scope holding each term. */
  documentFrequencies(terms: readonly string[], scope?: LeafScope): Map<string, number> {
    const { df } = this.visible(scope);
    return new Map(terms.map((term) => [term, df(term)]));
  }

  /** Live leaves holding the term among those `alive` marks (all of them when no slot is dead). */
  private df(term: string, alive: SlotMask, everyLive: boolean): number {
    const list = this.postings.get(term) ?? [];
    if (everyLive && this.deadSlots === 0) return list.length;
    if (!everyLive) {
      let df = 0;
      for (const packed of list) if (alive[slotOf(packed)]) df += 1;
      return df;
    }
    let known = this.deadPostings.get(term);
    // More ranges removed since than the list is long: counting afresh is the cheaper.
    if (!known || this.removed.length - known.removals > list.length) {
      let dead = 0;
      for (const packed of list) if (!this.alive[slotOf(packed)]) dead += 1;
      known = { dead, removals: this.removed.length };
      this.deadPostings.set(term, known);
    }
    for (; known.removals < this.removed.length; known.removals++) {
      const [first, last] = this.removed[known.removals] ?? [0, -1];
      known.dead += firstPostingAfter(list, last) - firstPostingAfter(list, first - 1);
    }
    return list.length - known.dead;
  }

  /**
   * The leaves the scope sees and the statistics over them alone, so that scores are those of a
   * corpus holding only those documents: a pass over the scope's documents, then df per term by a
   * pass over its postings.
   */
  private visible(scope?: LeafScope): Visible {
    if (!scopeKey(scope)) {
      return {
        alive: this.alive,
        n: this.liveNodes,
        totalLength: this.totalLength,
        totalGramLength: this.totalGramLength,
        df: (term) => this.df(term, this.alive, true),
      };
    }
    const key = scopeKey(scope);
    const cached = this.views.get(key);
    if (cached) return cached;
    const collections = scope?.collections && new Set(scope.collections);
    const ids = scope?.documentIds ?? this.documents.keys();
    const alive = new Uint8Array(this.nodeIds.length);
    let n = 0;
    let totalLength = 0;
    let totalGramLength = 0;
    for (const id of new Set(ids)) {
      const doc = this.documents.get(id);
      if (!doc || (collections && !collections.has(doc.collection))) continue;
      for (const slot of doc.slots) {
        if (!this.alive[slot]) continue;
        alive[slot] = 1;
        n += 1;
        totalLength += this.lengths[slot] ?? 0;
        totalGramLength += this.gramLengths[slot] ?? 0;
      }
    }
    const frequencies = new Map<string, number>();
    const df = (term: string) => {
      let count = frequencies.get(term);
      if (count === undefined) {
        count = this.df(term, alive, false);
        frequencies.set(term, count);
      }
      return count;
    };
    const view = { alive, n, totalLength, totalGramLength, df };
    // The views of the last few scopes asked, until the index changes (`changed`): an asker's next
    // search reuses its view (and the document frequencies counted so far).
    if (this.views.size >= MAX_VIEWS) this.views.clear();
    this.views.set(key, view);
    return view;
  }

  /**
   * The `limit` best leaves for the query terms by BM25 (see `bm25Score`; a term given twice counts
   * once, with its first weight), ties by document key and ordinal; highlights are the query terms each leaf contains.
   * `asked`, when given, names the question's own terms: the others (feedback's) are left out of
   * title coverage (`Bm25Scorer.add`).
   */
  rank(
    terms: readonly QueryTerm[],
    limit: number,
    params: Bm25Params,
    scope?: LeafScope,
    asked?: ReadonlySet<string>,
  ): RankedNode[] {
    const scorer = this.scorer(params, scope);
    if (!asked) scorer.add(terms);
    else {
      scorer.add(terms.filter((t) => asked.has(t.term)));
      scorer.add(
        terms.filter((t) => !asked.has(t.term)),
        { expansion: true },
      );
    }
    return scorer.top(limit);
  }

  /**
   * A BM25 accumulator over the index (of the scope's documents) as it stands now, extended term by term (`Bm25Scorer`): a
   * second ranking that only adds terms to a first (pseudo-relevance feedback) reads only the new
   * terms' postings.
   */
  scorer(params: Bm25Params, scope?: LeafScope): Bm25Scorer {
    const generation = this.generation;
    const visible = this.visible(scope);
    const { alive, n, totalLength, totalGramLength, df } = visible;
    return new Bm25Scorer(
      {
        nodeIds: this.nodeIds,
        documentKeys: this.documentKeys,
        ordinals: this.ordinals,
        lengthNorms: (gram, k1, b, average) => this.lengthNorms(gram, k1, b, average),
        alive,
        postings: this.postings,
        n,
        avgdl: n > 0 ? totalLength / n : 0,
        avggl: n > 0 ? totalGramLength / n : 0,
        df,
        titleTerms: () => this.titleTermsOfSlots(),
        titleWorths: () => this.titleWorthsOf(params, scopeKey(scope)),
        unchanged: () => generation === this.generation,
      },
      params,
    );
  }

  /**
   * The live leaves and their postings as flat arrays (`IndexImage`), slots renumbered in document
   * order: `fromImage` of it ranks as this index does.
   */
  toImage(): IndexImage {
    const remap = new Int32Array(this.nodeIds.length).fill(-1);
    const documents: ImageDocument[] = [];
    const nodeIds: string[] = [];
    const ordinals = new Uint32Array(this.liveNodes);
    const lengths = new Uint32Array(this.liveNodes);
    const gramLengths = new Uint32Array(this.liveNodes);
    for (const [id, { slots, ...stamp }] of this.documents) {
      let leaves = 0;
      for (const slot of slots) {
        if (!this.alive[slot]) continue;
        const at = nodeIds.length;
        remap[slot] = at;
        nodeIds.push(this.nodeIds[slot] ?? '');
        ordinals[at] = this.ordinals[slot] ?? 0;
        lengths[at] = this.lengths[slot] ?? 0;
        gramLengths[at] = this.gramLengths[slot] ?? 0;
        leaves += 1;
      }
      documents.push({ id, ...stamp, leaves });
    }
    const terms: string[] = [];
    const counts: number[] = [];
    let total = 0;
    for (const [term, list] of this.postings) {
      let count = 0;
      for (const packed of list) if ((remap[slotOf(packed)] ?? -1) >= 0) count += 1;
      if (count === 0) continue;
      terms.push(term);
      counts.push(count);
      total += count;
    }
    const postings = new Float64Array(total);
    let at = 0;
    for (const list of this.postings.values()) {
      for (const packed of list) {
        const old = slotOf(packed);
        const slot = remap[old] ?? -1;
        if (slot >= 0) postings[at++] = packed - (old - slot) * SLOT_UNIT;
      }
    }
    return {
      documents,
      nodeIds,
      ordinals,
      lengths,
      gramLengths,
      terms,
      counts: Uint32Array.from(counts),
      postings,
    };
  }

  /**
   * The index an image holds (`toImage`), taken as it is: the caller checked it (`readIndexSnapshot`).
   * Long posting lists stay views of `image.postings` until a document adds to them.
   */
  static fromImage(image: IndexImage): Bm25MemoryIndex {
    const index = new Bm25MemoryIndex();
    const n = image.nodeIds.length;
    index.nodeIds = image.nodeIds;
    index.ordinals = Array.from(image.ordinals);
    index.lengths = Array.from(image.lengths);
    index.gramLengths = Array.from(image.gramLengths);
    index.alive = new Array<boolean>(n).fill(true);
    index.liveNodes = n;
    let slot = 0;
    for (const { id, leaves, ...stamp } of image.documents) {
      const slots: number[] = [];
      for (const end = slot + leaves; slot < end; slot++) {
        slots.push(slot);
        index.documentKeys.push(stamp.key);
        index.totalLength += index.lengths[slot] ?? 0;
        index.totalGramLength += index.gramLengths[slot] ?? 0;
      }
      index.documents.set(id, { ...stamp, slots });
    }
    let at = 0;
    for (const [t, term] of image.terms.entries()) {
      const count = image.counts[t] ?? 0;
      const list = image.postings.subarray(at, at + count);
      index.postings.set(term, count < SHORT_LIST ? Array.from(list) : list);
      at += count;
    }
    return index;
  }

  private compact(): void {
    const remap = new Map<number, number>();
    const ids: string[] = [];
    const keys: string[] = [];
    const ordinals: number[] = [];
    const lengths: number[] = [];
    const gramLengths: number[] = [];
    const titles: TitleTerms[] = [];
    this.alive.forEach((live, slot) => {
      if (!live) return;
      remap.set(slot, ids.length);
      titles.push(this.titleTerms?.[slot]);
      ids.push(this.nodeIds[slot] ?? '');
      keys.push(this.documentKeys[slot] ?? '');
      ordinals.push(this.ordinals[slot] ?? 0);
      lengths.push(this.lengths[slot] ?? 0);
      gramLengths.push(this.gramLengths[slot] ?? 0);
    });
    for (const [term, list] of this.postings) {
      const kept: number[] = [];
      for (const packed of list) {
        const old = slotOf(packed);
        const slot = remap.get(old);
        if (slot !== undefined) kept.push(packed - (old - slot) * SLOT_UNIT);
      }
      if (kept.length) this.postings.set(term, kept);
      else this.postings.delete(term);
    }
    for (const doc of this.documents.values()) doc.slots = doc.slots.map((s) => remap.get(s) ?? -1);
    this.nodeIds = ids;
    this.documentKeys = keys;
    this.ordinals = ordinals;
    this.lengths = lengths;
    this.gramLengths = gramLengths;
    if (this.titleTerms) this.titleTerms = titles;
    this.alive = ids.map(() => true);
    this.deadSlots = 0;
    this.removed = [];
    this.deadPostings = new Map();
  }
}

/** The scope's cache key: '' for the unscoped index (every collection, every document). */
function scopeKey(scope?: LeafScope): string {
  if (!scope || (!scope.collections && !scope.documentIds)) return '';
  return `${scope.collections?.join(',') ?? '*'}|${scope.documentIds?.join(',') ?? '*'}`;
}

/** A leaf's distinct title and section path terms (weight A); undefined when it has none. */
type TitleTerms = readonly string[] | undefined;

/** The place of the first posting of a slot after `slot` in a list in slot order (binary search). */
function firstPostingAfter(list: Postings, slot: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (slotOf(list[middle] as number) <= slot) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Adds to `counts[slot]` one per posting of the list in the slot's title (title tf > 0). */
function countTitlePostings(list: Postings, counts: Uint32Array): void {
  for (let i = 0; i < list.length; i++) {
    const packed = list[i] as number;
    const slot = Math.floor(packed / SLOT_UNIT);
    if (packed - slot * SLOT_UNIT >= TF_BITS) counts[slot] = (counts[slot] as number) + 1;
  }
}

/** Writes the term at `next[slot]` of `flat` (then moves it on) for each title posting of the list. */
function placeTitlePostings(list: Postings, term: string, next: Uint32Array, flat: string[]): void {
  for (let i = 0; i < list.length; i++) {
    const packed = list[i] as number;
    const slot = Math.floor(packed / SLOT_UNIT);
    if (packed - slot * SLOT_UNIT < TF_BITS) continue;
    const at = next[slot] as number;
    flat[at] = term;
    next[slot] = at + 1;
  }
}

/** Whether `terms` is `flat[start..end)`. */
function sameRun(terms: readonly string[], flat: readonly string[], start: number, end: number): boolean {
  if (terms.length !== end - start) return false;
  for (let i = 0; i < terms.length; i++) if (terms[i] !== flat[start + i]) return false;
  return true;
}

/**
 * The leaf's title terms (in code point order), `previous` (the previous leaf's) when they are the
 * same: the next paragraph of a section shares its array.
 */
function sharedTitle(terms: ReadonlyMap<string, TermCount>, previous: TitleTerms): TitleTerms {
  const title: string[] = [];
  for (const [term, count] of terms) if (count.titleTf > 0) title.push(term);
  if (title.length === 0) return undefined;
  title.sort();
  return previous && sameRun(previous, title, 0, title.length) ? previous : title;
}

/** What a `Bm25Scorer` reads of its index: the arrays as they were when it began. */
interface ScorerView {
  nodeIds: readonly string[];
  documentKeys: readonly string[];
  ordinals: readonly number[];
  /** Each slot's `k1 * (1 - b + b * dl / average)` for the words (`gram` false) or the character grams. */
  lengthNorms(gram: boolean, k1: number, b: number, average: number): Float64Array;
  alive: SlotMask;
  postings: ReadonlyMap<string, readonly number[] | Float64Array>;
  n: number;
  avgdl: number;
  avggl: number;
  df(term: string): number;
  /** Each slot's distinct title and section path terms (`Bm25MemoryIndex.titleTerms`). */
  titleTerms(): readonly TitleTerms[];
  /** Each slot's title worth computed so far for the scorer's scope and parameters, NaN if not yet. */
  titleWorths(): Float64Array;
  /** False once the index has changed (its slots may name other leaves). */
  unchanged(): boolean;
}

/**
 * BM25 scores of one query over a `Bm25MemoryIndex`, accumulated term by term: `add` adds the terms'
 * contributions (each distinct term of one call once, with its first weight; a term added again by a
 * later call adds its new weight's share, as a summed weight would), `top` reads the best leaves.
 * BM25 is a sum over terms, so adding expansion terms to a first query's scores ranks as the
 * expanded query does. Valid while the index is unchanged (`current`).
 */
export class Bm25Scorer {
  private readonly scores: Float64Array;
  private readonly touched: number[] = [];
  /** Per distinct term, a bit per leaf (32 terms to a block): which terms each leaf holds. */
  private readonly masks: Uint32Array[] = [];
  private readonly terms = new Map<string, number>();
  /**
   * Per slot, the worth of the question's own terms (not feedback's) its title and section path hold
   * (`titleShare`).
   */
  private readonly asked: Float64Array;

  constructor(
    private readonly view: ScorerView,
    private readonly params: Bm25Params,
  ) {
    this.scores = new Float64Array(view.nodeIds.length);
    this.asked = new Float64Array(view.nodeIds.length);
  }

  /** False once the index has changed since this scorer began: rank afresh then. */
  get current(): boolean {
    return this.view.unchanged();
  }

  /**
   * Adds terms' contributions; `expansion` marks terms a feedback step added, which title coverage
   * leaves out (it asks how much of a title the question itself holds).
   */
  add(terms: readonly QueryTerm[], { expansion = false }: { expansion?: boolean } = {}): void {
    if (!this.current) throw new Error('the BM25 index changed since this scorer began');
    const { n, alive } = this.view;
    const scores = this.scores;
    for (const [term, weight] of distinctTerms(terms)) {
      const list = this.view.postings.get(term);
      if (!list || !(weight > 0)) continue;
      const df = this.view.df(term);
      if (df === 0) continue;
      // Each field is scored with its own parameters against its own length (`fieldParams`).
      const { gram, params } = termField(term, this.params);
      const { k1, b } = params;
      const norms = this.view.lengthNorms(gram, k1, b, gram ? this.view.avggl : this.view.avgdl);
      const termWeight = bm25TermWeight(n, df, params, weight);
      const k1Plus = k1 + 1;
      const titleExtra = (params.titleWeight ?? 1) - 1;
      // The title's share is needed only to weigh title coverage in (`fused`), of the question's terms.
      const asked = (this.params.titleCoverage ?? 0) > 0 && !expansion ? this.asked : undefined;
      const titleWorth = asked ? bm25TermWeight(n, df, params) : 0;
      const touched = this.touched;
      const t = this.bitOf(term);
      const block = this.masks[t >>> 5] as Uint32Array;
      const bit = 1 << (t & 31);
      // The hot loop of a search (a common term has postings in a good share of all leaves): indexed,
      // no call per posting (`slotOf` and bm25.ts's `weightedTf` written out). 10,000 generated
      // documents, full-text p50 / p95 62 / 111 -> 49 / 70 ms.
      for (let i = 0; i < list.length; i++) {
        const packed = list[i] as number;
        const slot = Math.floor(packed / SLOT_UNIT);
        if (!alive[slot]) continue;
        const low = packed - slot * SLOT_UNIT;
        const titleTf = Math.floor(low / TF_BITS);
        const tf = low - titleTf * TF_BITS + titleExtra * titleTf;
        if (asked && titleTf > 0) asked[slot] = (asked[slot] ?? 0) + titleWorth;
        const score = scores[slot] as number;
        // The term weight > 0 and tf >= 1, so a touched slot never scores 0.
        if (score === 0) touched.push(slot);
        scores[slot] = score + (termWeight * tf * k1Plus) / (tf + (norms[slot] as number));
        block[slot] = (block[slot] as number) | bit;
      }
    }
  }

  /**
   * The `limit` best leaves so far, ties by document key and ordinal (`comparePositions`), with the
   * added terms each contains; by BM25 alone with `titleCoverage: false` (feedback's first ranking).
   */
  top(limit: number, { titleCoverage = true }: { titleCoverage?: boolean } = {}): RankedNode[] {
    const terms = [...this.terms.keys()];
    const { scores, slots } = this.fused(limit, titleCoverage ? (this.params.titleCoverage ?? 0) : 0);
    return this.best(limit, scores, slots).map((slot) => ({
      nodeId: this.view.nodeIds[slot] ?? '',
      documentKey: this.view.documentKeys[slot] ?? '',
      ordinal: this.view.ordinals[slot] ?? 0,
      score: scores[slot] ?? 0,
      highlights: terms.filter((_, t) => ((this.masks[t >>> 5]?.[slot] ?? 0) & (1 << (t & 31))) !== 0),
    }));
  }

  /**
   * The scores with the title coverage fused in at `weight` (`withTitleCoverage`) and the slots that
   * can be among the `limit` best; the BM25 scores and every touched slot at weight 0. Coverage multiplies a score
   * by at most 1 + its weight, so a leaf whose BM25 times that stays below the `limit`-th best BM25
   * cannot reach the best; of the others, only those whose title holds a term of the question need
   * their title's worth (computed once for the leaves sharing it): the cost of those candidates,
   * not of the index.
   */
  private fused(limit: number, weight: number): { scores: Float64Array; slots: readonly number[] } {
    if (!(weight > 0)) return { scores: this.scores, slots: this.touched };
    const scores = this.scores;
    const best = this.best(limit, scores, this.touched);
    const floor = best.length === limit ? (scores[best[limit - 1] ?? 0] ?? 0) : 0;
    const titles = this.view.titleTerms();
    const worths = this.view.titleWorths();
    const byTitle = new Map<readonly string[], number>();
    const termWorths = new Map<string, number>();
    const out = new Float64Array(scores.length);
    const slots: number[] = [];
    for (const slot of this.touched) {
      const score = scores[slot] ?? 0;
      if (score * (1 + weight) < floor) continue;
      slots.push(slot);
      const asked = this.asked[slot] ?? 0;
      // A title holding none of the question's terms covers nothing: its worth is not needed.
      if (asked === 0) {
        out[slot] = score;
        continue;
      }
      let worth = worths[slot] as number;
      if (Number.isNaN(worth)) {
        const title = titles[slot];
        worth = title ? (byTitle.get(title) ?? this.titleWorth(title, byTitle, termWorths)) : 0;
        worths[slot] = worth;
      }
      out[slot] = withTitleCoverage(score, titleShare(asked, worth), weight);
    }
    return { scores: out, slots };
  }

  /**
   * The worth of a title's terms, each one's `w * idf^e` at weight 1 in its field (`bm25TermWeight`),
   * kept in `byTitle` (and each term's in `byTerm`) for the leaves sharing the title.
   */
  private titleWorth(
    title: readonly string[],
    byTitle: Map<readonly string[], number>,
    byTerm: Map<string, number>,
  ): number {
    let worth = 0;
    for (const term of title) {
      let termWorth = byTerm.get(term);
      if (termWorth === undefined) {
        termWorth = bm25TermWeight(this.view.n, this.view.df(term), termField(term, this.params).params);
        byTerm.set(term, termWorth);
      }
      worth += termWorth;
    }
    byTitle.set(title, worth);
    return worth;
  }

  /** The term's bit index, a new one (and a new block every 32) for a term not seen before. */
  private bitOf(term: string): number {
    const known = this.terms.get(term);
    if (known !== undefined) return known;
    const t = this.terms.size;
    this.terms.set(term, t);
    if (t >>> 5 >= this.masks.length) this.masks.push(new Uint32Array(this.scores.length));
    return t;
  }

  /** The `limit` best of `slots` by score, then document key and ordinal, without sorting them all. */
  private best(limit: number, scores: Float64Array, slots: readonly number[]): number[] {
    const { nodeIds: ids, documentKeys: keys, ordinals } = this.view;
    const better = (a: number, b: number): boolean => {
      const diff = (scores[a] ?? 0) - (scores[b] ?? 0);
      if (diff !== 0) return diff > 0;
      const at = (slot: number) => ({ documentKey: keys[slot] ?? '', ordinal: ordinals[slot] ?? 0 });
      return (comparePositions(at(a), at(b)) || compareCodePoints(ids[a] ?? '', ids[b] ?? '')) < 0;
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
}
