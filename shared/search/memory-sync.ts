import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { errorFields, log } from '#shared/log/logger.ts';
import { Bm25MemoryIndex, type IndexedLeaf } from './memory-index.ts';
import { LEAF_TYPES, pgArray } from './scope.ts';
import { parseTsvectorCounts } from './tsvector-text.ts';

/**
 * Documents whose leaves are loaded per statement: a read of about one page (`readPaged`; 50
 * paragraphs are ~50 KB of tsvector text), since every page of a statement sizes all the rows after
 * it again (100 documents a statement: 4.2 s of CPU per 100 documents of 50 paragraphs, 5: 0.6 s).
 */
const LOAD_BATCH = 5;

interface State {
  index: Bm25MemoryIndex;
  fingerprint?: string;
  syncing?: Promise<void>;
}

const states = new WeakMap<Db, State>();

/**
 * The in-memory BM25 index of every live document's current version for this database (each in its
 * collection), brought up to date first: one cheap query fingerprints the set of (live document,
 * current version, collection); when it changed, the
 * documents that appeared or changed version are loaded and the others dropped. The first call loads
 * the whole scope (seconds at 50,000 paragraphs); later calls cost one small query.
 */
export async function syncedMemoryIndex(db: Db): Promise<Bm25MemoryIndex> {
  let state = states.get(db);
  if (!state) {
    state = { index: new Bm25MemoryIndex() };
    states.set(db, state);
  }
  const [row] = await queryRows<{ fingerprint: string }>(
    db,
    sql`SELECT count(*)::text || ':' || coalesce(sum(hashtextextended(id::text || ':' || current_version::text || ':' || collection, 0)), 0)::text AS fingerprint
        FROM documents WHERE deleted_at IS NULL AND current_version IS NOT NULL`,
  );
  const seen = row?.fingerprint;
  const current = state;
  // A sync already running may have started before the change this call saw: then sync again.
  for (let attempt = 0; attempt < 3 && seen !== current.fingerprint; attempt++) {
    current.syncing ??= synchronize(db, current).finally(() => {
      current.syncing = undefined;
    });
    await current.syncing;
  }
  return current.index;
}

/**
 * The in-memory BM25 index when it can answer without a first load: brought up to date as by
 * `syncedMemoryIndex` once it has been loaded, else `undefined` while its first load runs (started
 * here, in the background) so that the caller ranks in SQL, alike (`rankFulltextSql`). The first
 * load reads every leaf's terms (minutes at 500,000 paragraphs on a busy machine): the first search
 * after a start must not wait for it.
 */
export async function readyMemoryIndex(db: Db): Promise<Bm25MemoryIndex | undefined> {
  const state = states.get(db);
  if (state?.fingerprint !== undefined) return syncedMemoryIndex(db);
  if (!state?.syncing) warmSearchIndexInBackground(db);
  return undefined;
}

/**
 * Forgets the in-memory index of a database, so the next search reloads it: for code that rewrites
 * the leaves of a current version in place (the fingerprint only sees version changes), and before
 * the database closes.
 */
export function invalidateMemoryIndex(db: Db): void {
  states.delete(db);
}

async function synchronize(db: Db, state: State): Promise<void> {
  // Paged, as every read that grows with the corpus (the Data API answers at most 1 MiB).
  const live = await readPaged<{ id: string; version: number; collection: string; fingerprint: string }>(db, {
    columns: sql`s.id, s.version, s.collection, s.fingerprint`,
    from: sql`(SELECT id, current_version AS version, collection,
          count(*) OVER ()::text || ':' || coalesce(sum(hashtextextended(id::text || ':' || current_version::text || ':' || collection, 0)) OVER (), 0)::text AS fingerprint
        FROM documents WHERE deleted_at IS NULL AND current_version IS NOT NULL) s`,
    key: sql`s.id`,
    keyType: 'uuid',
    rowBytes: sql`128`,
  });
  const wanted = new Map(live.map((d) => [d.id, { version: Number(d.version), collection: d.collection }]));
  const held = state.index.versions();
  const same = (a?: { version: number; collection: string }, b?: { version: number; collection: string }) =>
    a?.version === b?.version && a?.collection === b?.collection;
  const missing = [...wanted].filter(([id, doc]) => !same(held.get(id), doc));
  const loaded = new Map<string, LoadedDocument>();
  for (let start = 0; start < missing.length; start += LOAD_BATCH) {
    const batch = missing
      .slice(start, start + LOAD_BATCH)
      .map(([id, doc]) => [id, doc.version] as [string, number]);
    for (const [id, leaves] of await loadLeaves(db, batch)) loaded.set(id, leaves);
  }
  // Applied without awaiting, so a concurrent search never sees half an update.
  for (const [id, doc] of held) if (!same(wanted.get(id), doc)) state.index.removeDocument(id);
  for (const [id, doc] of missing) {
    const leaves = loaded.get(id);
    state.index.addDocument(id, doc.version, leaves?.leaves ?? [], {
      collection: doc.collection,
      key: leaves?.key,
    });
  }
  state.fingerprint = live[0]?.fingerprint ?? '0:0';
}

/** A document's leaves as the index holds them, and its key (which orders equal scores). */
interface LoadedDocument {
  key: string;
  leaves: IndexedLeaf[];
}

async function loadLeaves(db: Db, docs: [string, number][]): Promise<Map<string, LoadedDocument>> {
  const rows = await readPaged<{
    document_id: string;
    key: string;
    id: string;
    ordinal: number;
    dl: number;
    gl: number;
    tsv: string | null;
  }>(db, {
    columns: sql`n.document_id, d.key, n.id, n.ordinal, n.token_count AS dl, n.gram_count AS gl, n.search_vector::text AS tsv`,
    from: sql`nodes n
        JOIN unnest(${pgArray(docs.map(([id]) => id))}::uuid[], ${pgArray(docs.map(([, v]) => String(v)))}::int[]) AS w(id, version)
          ON n.document_id = w.id AND n.version = w.version
        JOIN documents d ON d.id = n.document_id`,
    where: sql`n.node_type IN (${sql.raw(LEAF_TYPES.map((t) => `'${t}'`).join(', '))})`,
    key: sql`n.id`,
    keyType: 'uuid',
    rowBytes: sql`96 + octet_length(d.key) + coalesce(octet_length(n.search_vector::text), 0)`,
  });
  const byDoc = new Map<string, LoadedDocument>();
  for (const row of rows) {
    const doc = byDoc.get(row.document_id) ?? { key: row.key, leaves: [] };
    doc.leaves.push({
      id: row.id,
      ordinal: Number(row.ordinal),
      dl: Number(row.dl),
      gl: Number(row.gl),
      terms: row.tsv ? parseTsvectorCounts(row.tsv) : new Map(),
    });
    byDoc.set(row.document_id, doc);
  }
  return byDoc;
}

/**
 * Loads the in-memory BM25 index ahead of the first search (seconds at 50,000 paragraphs).
 *
 * @example await warmSearchIndex(db);
 */
export async function warmSearchIndex(db: Db): Promise<void> {
  await syncedMemoryIndex(db);
}

/**
 * Starts loading the in-memory BM25 index in the background, e.g. once the server listens; full
 * text is ranked in SQL until it ends. A failure is logged, unless the index was forgotten meanwhile
 * (`invalidateMemoryIndex`, which closing the runtime does): a one-shot `dropqa ask` that answered
 * before the load ended closes the database under it, and that is no failure.
 */
export function warmSearchIndexInBackground(db: Db): void {
  syncedMemoryIndex(db).catch((error) => {
    if (states.has(db))
      log.warn('search: loading the in-memory index failed; full-text is ranked in SQL', errorFields(error));
  });
}
