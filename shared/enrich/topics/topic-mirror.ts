import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { mergeKeys, overlapKeys, type TopicTerms, termsOverlap, topicTerms } from '#shared/text/topics.ts';
import { cosine, SparseCosine } from './sparse-cosine.ts';
import { hasDirection, type Nearness, nearestTopics } from './topic-vectors.ts';

/** A topic as the mirror holds it. */
interface Entry {
  id: string;
  name: string;
  /** Its name's terms, computed once (`sameByTerms` compares them with every new document's names). */
  terms: TopicTerms;
  /** `created_at` in microseconds: topics are ordered by it, then id, as `ORDER BY created_at, id`. */
  createdAt: number;
}

/** A best term match among topics: `termOverlap` score. */
export interface TermMatch {
  id: string;
  name: string;
  score: number;
}

/**
 * The topics of one database in memory: names indexed by their terms and, once the table has been
 * quiet, vectors. `generation` is what `topic_generation.n` read when the mirror was the table.
 */
interface Mirror {
  generation: number;
  topics: Map<string, Entry>;
  /** `overlapKeys` of each name -> the topics under it. */
  index: Map<string, Set<Entry>>;
  /** The topics' vectors of one embedder (`model/dimensions`); undefined: names only. */
  vectors?: { embedder: string; index: SparseCosine };
}

interface State {
  mirror?: Mirror;
  /** Topic linking in this process, one at a time, so each finds the mirror its predecessor left. */
  turn: Promise<unknown>;
}

/** `created_at` in microseconds (exact in a double), as the mirror orders topics. */
export const CREATED_MICROS = sql`floor(extract(epoch FROM created_at) * 1000000)::float8`;

/** Per database. */
const states = new WeakMap<Db, State>();

/**
 * Below the merge threshold by at least this much in double precision, a topic is below it for
 * pgvector too (float4 sums over a few thousand dimensions err by far less).
 */
const MARGIN = 1e-3;

/** What a topic transaction changed, applied to the mirror once it committed. */
export interface TopicChanges {
  created: { id: string; name: string; createdAt: number; vector?: readonly number[] }[];
  dropped: string[];
}

/** The existing topics as one topic transaction sees them (`openTopics`). */
export interface TopicView {
  /** The topic whose terms best match `name` at `mergeThreshold` or above (the first of equals). */
  sameByTerms(name: string, mergeThreshold: number): TermMatch | undefined;
  /**
   * `nearestTopics` for the candidate vectors, with every existing topic and every pair of
   * candidates below `mergeThreshold` possibly left out (none of those can be merged into).
   */
  nearest(vectors: readonly (number[] | undefined)[], mergeThreshold: number): Promise<Nearness>;
  /** What the transaction wrote: the view (and the mirror, unless the transaction fails) holds it from now on. */
  wrote(changes: TopicChanges): void;
}

/**
 * Runs `work` (one topic transaction: it must take the topics advisory lock first, then call
 * `view`) with the topics mirrored in memory for `db`. The mirror is checked with one statement
 * (`topic_generation.n`, counted up by a trigger for every topic row written, by any process); when
 * another writer changed the topics it is read again (names; vectors only once no other writer came
 * between two of this process's transactions, so several processes writing at once read no more
 * than without a mirror). `work` tells the view what it wrote (`TopicView.wrote`), so it can link
 * several documents in one transaction; when it fails the mirror is dropped (read again next time).
 * Transactions of one process take turns.
 *
 * @example await withTopicMirror(db, embedder, (open) => db.transaction(async (tx) => { ... }));
 */
export function withTopicMirror<T>(
  db: Db,
  embedder: Embedder,
  work: (open: (tx: Db) => Promise<TopicView>) => Promise<T>,
): Promise<T> {
  const state = states.get(db) ?? { turn: Promise.resolve() };
  states.set(db, state);
  const run = state.turn.then(async () => {
    try {
      return await work((tx) => openView(tx, state, embedder));
    } catch (error) {
      state.mirror = undefined;
      throw error;
    }
  });
  state.turn = run.catch(() => undefined);
  return run;
}

const embedderKey = (embedder: Pick<Embedder, 'model' | 'dimensions'>) =>
  `${embedder.model}/${embedder.dimensions}`;

async function openView(tx: Db, state: State, embedder: Embedder): Promise<TopicView> {
  const [row] = await queryRows<{ n: number | string }>(tx, sql`SELECT n FROM topic_generation`);
  const generation = Number(row?.n ?? 0);
  const key = embedderKey(embedder);
  let mirror = state.mirror;
  if (!mirror || mirror.generation !== generation) {
    mirror = await readNames(tx, generation);
  } else if (mirror.vectors?.embedder !== key) {
    // Unchanged since this process's last transaction: worth holding the vectors too.
    await readVectors(tx, mirror, embedder);
  }
  state.mirror = mirror;
  const held = mirror;
  return {
    sameByTerms: (name, mergeThreshold) => sameByTerms(held, name, mergeThreshold),
    nearest: (vectors, mergeThreshold) =>
      held.vectors?.embedder === key
        ? nearestHeld(tx, held.vectors.index, embedder, vectors, mergeThreshold)
        : nearestTopics(tx, embedder, vectors),
    wrote: (changes) => apply(held, changes, embedder),
  };
}

/** Every topic's name, in pages: thousands of topics pass the Data API's 1 MiB result. */
async function readNames(tx: Db, generation: number): Promise<Mirror> {
  const rows = await readPaged<{ id: string; name: string; created: number | string }>(tx, {
    columns: sql`id, name, ${CREATED_MICROS} AS created`,
    from: sql`topics`,
    key: sql`id`,
    keyType: 'uuid',
    rowBytes: sql`96 + octet_length(name)`,
  });
  const mirror: Mirror = { generation, topics: new Map(), index: new Map() };
  for (const row of rows) add(mirror, { id: row.id, name: row.name, createdAt: Number(row.created) });
  return mirror;
}

/** The topics' vectors, in pages: a 1,024-dimension vector is ~12 KB as text, so ~80 pass 1 MiB. */
async function readVectors(tx: Db, mirror: Mirror, embedder: Embedder): Promise<void> {
  const rows = await readPaged<{ id: string; embedding: string }>(tx, {
    columns: sql`id, embedding::text AS embedding`,
    from: sql`topics`,
    where: sql`embedding_model = ${embedder.model} AND vector_dims(embedding) = ${embedder.dimensions}::int`,
    key: sql`id`,
    keyType: 'uuid',
    rowBytes: sql`64 + octet_length(embedding::text)`,
  });
  const index = new SparseCosine(embedder.dimensions);
  for (const row of rows) index.add(row.id, JSON.parse(row.embedding) as number[]);
  mirror.vectors = { embedder: embedderKey(embedder), index };
}

function add(mirror: Mirror, topic: Omit<Entry, 'terms'>): void {
  const entry = { ...topic, terms: topicTerms(topic.name) };
  mirror.topics.set(entry.id, entry);
  for (const key of overlapKeys(entry.terms)) {
    const set = mirror.index.get(key);
    if (set) set.add(entry);
    else mirror.index.set(key, new Set([entry]));
  }
}

function remove(mirror: Mirror, id: string): void {
  const entry = mirror.topics.get(id);
  if (!entry) return;
  mirror.topics.delete(id);
  mirror.vectors?.index.remove(id);
  for (const key of overlapKeys(entry.terms)) {
    const set = mirror.index.get(key);
    set?.delete(entry);
    if (set?.size === 0) mirror.index.delete(key);
  }
}

/** The transaction's own writes: each row written counts one on `topic_generation.n` at commit. */
function apply(mirror: Mirror, changes: TopicChanges, embedder: Embedder): void {
  for (const topic of changes.created) {
    add(mirror, { id: topic.id, name: topic.name, createdAt: topic.createdAt });
    if (topic.vector && mirror.vectors?.embedder === embedderKey(embedder))
      mirror.vectors.index.add(topic.id, topic.vector);
  }
  for (const id of changes.dropped) remove(mirror, id);
  mirror.generation += changes.created.length + changes.dropped.length;
}

const before = (a: Entry, b: Entry) =>
  a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);

/** The best term match at `mergeThreshold` or above among the topics that can reach it (`mergeKeys`), in table order. */
function sameByTerms(mirror: Mirror, name: string, mergeThreshold: number): TermMatch | undefined {
  const terms = topicTerms(name);
  const sharing = new Set<Entry>();
  const sizeOf = (key: string) => mirror.index.get(key)?.size ?? 0;
  for (const key of mergeKeys(terms, mergeThreshold, sizeOf))
    for (const entry of mirror.index.get(key) ?? []) sharing.add(entry);
  let same: (TermMatch & { entry: Entry }) | undefined;
  for (const entry of sharing) {
    const score = termsOverlap(entry.terms, terms);
    if (score < mergeThreshold || score <= 0) continue;
    if (!same || score > same.score || (score === same.score && before(entry, same.entry)))
      same = { id: entry.id, name: entry.name, score, entry };
  }
  return same && { id: same.id, name: same.name, score: same.score };
}

/**
 * `nearestTopics` over the topics whose cosine with a candidate, in double precision over the held
 * vectors, is within `MARGIN` of `mergeThreshold` or above: pgvector gives the exact distances and
 * order among those, and no statement at all is needed when there are none (the usual case).
 */
async function nearestHeld(
  tx: Db,
  index: SparseCosine,
  embedder: Embedder,
  vectors: readonly (number[] | undefined)[],
  mergeThreshold: number,
): Promise<Nearness> {
  const floor = mergeThreshold - MARGIN;
  const given = vectors.filter(hasDirection);
  const near = new Set(given.flatMap((vector) => index.above(vector, floor)));
  const pairs = given.some((a, i) => given.slice(i + 1).some((b) => cosine(a, b) >= floor));
  if (near.size === 0 && !pairs) return { nearest: vectors.map(() => undefined), between: new Map() };
  return nearestTopics(tx, embedder, vectors, [...near]);
}
