import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { stampUnlessUnwritten } from '#shared/db/write-clock.ts';
import { ANALYZER_VERSION } from '#shared/index/analyze.ts';
import { errorFields, log } from '#shared/log/logger.ts';
import { Bm25MemoryIndex, type DocumentStamp, type IndexedLeaf } from './memory-index.ts';
import {
  readIndexSnapshot,
  SNAPSHOT_FORMAT,
  SnapshotUnusableError,
  writeIndexSnapshot,
} from './memory-snapshot.ts';
import { LEAF_TYPES, pgArray } from './scope.ts';
import { parseTsvectorCounts } from './tsvector-text.ts';

/**
 * Documents whose leaves are loaded per statement: a read of about one page (`readPaged`; 50
 * paragraphs are ~50 KB of tsvector text), since every page of a statement sizes all the rows after
 * it again (100 documents a statement: 4.2 s of CPU per 100 documents of 50 paragraphs, 5: 0.6 s).
 */
const LOAD_BATCH = 5;

/** A sync loading more documents than this fills a copy of the index as it loads them (`synchronize`). */
const STAGE_AFTER = 100;

/** A sync that loaded this many documents from the database writes the snapshot: a restart would load them again. */
const SAVE_AFTER_LOADING = 100;

/**
 * After a snapshot is read back, searches wait for the first sync when it loads at most this many
 * documents from the database (~7 ms each at 50 paragraphs), rather than being ranked in SQL.
 */
const QUICK_CATCH_UP = 20;

interface State {
  index: Bm25MemoryIndex;
  /** The corpus fingerprint of what the index holds (its snapshot's until the first sync). */
  fingerprint?: string;
  /** True once the index matched the database (one read back from a snapshot may lag it). */
  synced: boolean;
  /** The first load failed: the next search starts it again. */
  failed?: boolean;
  syncing?: Promise<void>;
  /** The snapshot read back, once (`restore`). */
  restoring?: Promise<void>;
  /** True when searches wait for the first sync: a snapshot was read back and little is left to load. */
  quick: Promise<boolean>;
  settleQuick(quick: boolean): void;
  /** The index changed since it was read from its snapshot or written to it. */
  unsaved: boolean;
  saving?: Promise<void>;
}

const states = new WeakMap<Db, State>();
/** The snapshot file of each database's index (`keepMemoryIndexSnapshot`). */
const snapshotFiles = new WeakMap<Db, string>();

/** The live documents' current versions (`d`, `v`). */
const CURRENT = sql`documents d JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
  WHERE d.deleted_at IS NULL`;
/** A hash of what the index keeps of a document (`DocumentStamp`): any change of it reloads the document. */
const STAMP_HASH = sql`hashtextextended(d.id::text || ':' || d.current_version::text || ':' || d.collection || ':'
  || d.key || ':' || coalesce(v.analyzer_version, 0)::text, 0)`;

function newState(): State {
  let settleQuick: (quick: boolean) => void = () => {};
  const quick = new Promise<boolean>((done) => {
    settleQuick = done;
  });
  return { index: new Bm25MemoryIndex(), synced: false, quick, settleQuick, unsaved: false };
}

/**
 * The in-memory BM25 index of every live document's current version for this database (each in its
 * collection), brought up to date first: one cheap query fingerprints the set of (live document,
 * current version, collection, key, analysis); when it changed, the documents that appeared or
 * changed are loaded and the others dropped. The first call reads the snapshot back
 * (`keepMemoryIndexSnapshot`), or else loads the whole scope (seconds at 50,000 paragraphs); later
 * calls cost that query (O(live documents): 20-100 ms at 10,000), or nothing on an embedded
 * database not written since the last one (`stampUnlessUnwritten`).
 */
export async function syncedMemoryIndex(db: Db): Promise<Bm25MemoryIndex> {
  let state = states.get(db);
  if (!state) {
    state = newState();
    states.set(db, state);
  }
  const current = state;
  current.failed = false;
  try {
    current.restoring ??= restore(db, current);
    await current.restoring;
    const seen = await stampUnlessUnwritten(db, 'memory-index', async () => {
      const [row] = await queryRows<{ fingerprint: string }>(
        db,
        sql`SELECT count(*)::text || ':' || coalesce(sum(${STAMP_HASH}), 0)::text AS fingerprint FROM ${CURRENT}`,
      );
      return row?.fingerprint ?? '0:0';
    });
    if (seen === current.fingerprint) current.settleQuick(true);
    // A sync already running may have started before the change this call saw: then sync again.
    for (let attempt = 0; attempt < 3 && seen !== current.fingerprint; attempt++) {
      current.syncing ??= synchronize(db, current).finally(() => {
        current.syncing = undefined;
      });
      await current.syncing;
    }
  } catch (error) {
    current.settleQuick(false);
    if (!current.synced) current.failed = true;
    throw error;
  }
  current.synced = true;
  return current.index;
}

/**
 * The in-memory BM25 index when it can answer without a long first load: brought up to date as by
 * `syncedMemoryIndex` once it has been loaded, or once its snapshot was read back and the database
 * has few changes since; else `undefined` while its first load runs (started here, in the
 * background) so that the caller ranks in SQL, alike (`rankFulltextSql`). The first load from the
 * database reads every leaf's terms (minutes at 500,000 paragraphs on a busy machine): the first
 * search after a start must not wait for it.
 */
export async function readyMemoryIndex(db: Db): Promise<Bm25MemoryIndex | undefined> {
  const state = states.get(db);
  if (state?.synced) return syncedMemoryIndex(db);
  if (!state || state.failed) warmSearchIndexInBackground(db);
  return (await states.get(db)?.quick) ? syncedMemoryIndex(db) : undefined;
}

/**
 * Forgets the in-memory index of a database, so the next search reloads it (from its snapshot when
 * one is kept): before the database closes, or for code that rewrites leaves without recording it
 * in the fingerprint (a version, key, collection or analysis change).
 */
export function invalidateMemoryIndex(db: Db): void {
  states.get(db)?.settleQuick(false);
  states.delete(db);
}

/**
 * Keeps the in-memory index of this database in `file` (in the data folder): its first load reads
 * the file back and loads only what changed since from the database, and the index is written there
 * after a large load and by `saveMemoryIndexSnapshot` (the runtime's close). A missing, damaged or
 * stale file is loaded from the database instead, with a log line.
 */
export function keepMemoryIndexSnapshot(db: Db, file: string): void {
  snapshotFiles.set(db, file);
}

/**
 * Writes the in-memory index to its snapshot file when it changed since it was read or written
 * (nothing when no snapshot is kept or the index was never brought up to date). A failure is logged,
 * not thrown: the next start loads from the database.
 */
export async function saveMemoryIndexSnapshot(db: Db): Promise<void> {
  const state = states.get(db);
  const file = snapshotFiles.get(db);
  if (state && file) await save(file, state);
}

async function save(file: string, state: State): Promise<void> {
  if (state.fingerprint === undefined || !state.unsaved) return state.saving;
  // Taken now, in one piece: a sync applies its changes and its fingerprint in one step too.
  const image = state.index.toImage();
  const stamp = {
    format: SNAPSHOT_FORMAT,
    analyzerVersion: ANALYZER_VERSION,
    fingerprint: state.fingerprint,
  };
  state.unsaved = false;
  const began = performance.now();
  const written = () =>
    writeIndexSnapshot(file, image, stamp).then(
      () =>
        log.info('search: in-memory index snapshot written', {
          file,
          documents: image.documents.length,
          leaves: image.nodeIds.length,
          ms: Math.round(performance.now() - began),
        }),
      (error: unknown) => {
        state.unsaved = true;
        log.warn('search: could not write the in-memory index snapshot', { file, ...errorFields(error) });
      },
    );
  state.saving = (state.saving ?? Promise.resolve()).then(written);
  return state.saving;
}

/** Reads the snapshot back into the state, if one is kept and it is usable; logs why not otherwise. */
async function restore(db: Db, state: State): Promise<void> {
  const file = snapshotFiles.get(db);
  if (!file) return state.settleQuick(false);
  const began = performance.now();
  try {
    const { image, stamp } = await readIndexSnapshot(file);
    if (stamp.format !== SNAPSHOT_FORMAT || stamp.analyzerVersion !== ANALYZER_VERSION)
      throw new SnapshotUnusableError(
        `of format ${stamp.format} and analysis ${stamp.analyzerVersion}, not ${SNAPSHOT_FORMAT} and ${ANALYZER_VERSION}`,
      );
    state.index = Bm25MemoryIndex.fromImage(image);
    state.fingerprint = stamp.fingerprint;
    log.info('search: in-memory index read from its snapshot', {
      documents: image.documents.length,
      leaves: image.nodeIds.length,
      ms: Math.round(performance.now() - began),
    });
  } catch (error) {
    state.settleQuick(false);
    if (error instanceof SnapshotUnusableError && error.missing) return;
    log.warn('search: in-memory index snapshot not used; loading from the database', {
      file,
      ...errorFields(error),
    });
  }
}

async function synchronize(db: Db, state: State): Promise<void> {
  // Paged, as every read that grows with the corpus (the Data API answers at most 1 MiB).
  const live = await readPaged<{
    id: string;
    version: number;
    collection: string;
    key: string;
    analyzer: number;
    fingerprint: string;
  }>(db, {
    columns: sql`s.id, s.version, s.collection, s.key, s.analyzer, s.fingerprint`,
    from: sql`(SELECT d.id, d.current_version AS version, d.collection, d.key, coalesce(v.analyzer_version, 0) AS analyzer,
          count(*) OVER ()::text || ':' || coalesce(sum(${STAMP_HASH}) OVER (), 0)::text AS fingerprint
        FROM ${CURRENT}) s`,
    key: sql`s.id`,
    keyType: 'uuid',
    rowBytes: sql`128 + octet_length(s.collection) + octet_length(s.key)`,
  });
  const wanted = new Map<string, DocumentStamp>(
    live.map((d) => [
      d.id,
      {
        version: Number(d.version),
        collection: d.collection,
        key: d.key,
        analyzerVersion: Number(d.analyzer),
      },
    ]),
  );
  const held = state.index.versions();
  const same = (a?: DocumentStamp, b?: DocumentStamp) =>
    a?.version === b?.version &&
    a?.collection === b?.collection &&
    a?.key === b?.key &&
    a?.analyzerVersion === b?.analyzerVersion;
  const missing = [...wanted].filter(([id, doc]) => !same(held.get(id), doc));
  const catchingUp = !state.synced && state.fingerprint !== undefined;
  // A snapshot read back with little left to load: searches may wait for the rest (`readyMemoryIndex`).
  state.settleQuick(catchingUp && missing.length <= QUICK_CATCH_UP);
  const began = performance.now();
  const stale = [...held].filter(([id, doc]) => !same(wanted.get(id), doc)).map(([id]) => id);
  // Never half an update for a concurrent search: a first load or a large sync fills a new index
  // (a copy of this one) batch by batch and swaps it in, holding one batch of parsed leaves at a
  // time (all of them at 500,000 paragraphs, ~70 bytes a term of a leaf, passed a 4 GB heap); a
  // small sync loads its documents, then changes the index in one step.
  const staged = held.size === 0 || missing.length > STAGE_AFTER;
  const index = !staged
    ? state.index
    : held.size === 0
      ? new Bm25MemoryIndex()
      : Bm25MemoryIndex.fromImage(state.index.toImage());
  if (staged) for (const id of stale) index.removeDocument(id);
  const pending: [string, DocumentStamp, IndexedLeaf[]][] = [];
  for (let start = 0; start < missing.length; start += LOAD_BATCH) {
    const batch = missing.slice(start, start + LOAD_BATCH);
    const loaded = await loadLeaves(
      db,
      batch.map(([id, doc]) => [id, doc.version]),
    );
    for (const [id, doc] of batch) {
      const leaves = loaded.get(id) ?? [];
      if (staged) index.addDocument(id, doc.version, leaves, doc);
      else pending.push([id, doc, leaves]);
    }
  }
  if (!staged) for (const id of stale) index.removeDocument(id);
  for (const [id, doc, leaves] of pending) index.addDocument(id, doc.version, leaves, doc);
  state.index = index;
  if (stale.length > 0 || missing.length > 0) state.unsaved = true;
  state.fingerprint = live[0]?.fingerprint ?? '0:0';
  const dropped = [...held.keys()].filter((id) => !wanted.has(id)).length;
  (catchingUp ? log.info : log.debug)('search: in-memory index brought up to date', {
    ...(catchingUp ? { since: 'snapshot' } : {}),
    loaded: missing.length,
    dropped,
    ms: Math.round(performance.now() - began),
  });
  const file = snapshotFiles.get(db);
  if (file && missing.length >= SAVE_AFTER_LOADING && states.get(db) === state) void save(file, state);
}

/** The leaves of the given document versions, by document, as the index holds them. */
async function loadLeaves(db: Db, docs: [string, number][]): Promise<Map<string, IndexedLeaf[]>> {
  const rows = await readPaged<{
    document_id: string;
    id: string;
    ordinal: number;
    dl: number;
    gl: number;
    tsv: string | null;
  }>(db, {
    columns: sql`n.document_id, n.id, n.ordinal, n.token_count AS dl, n.gram_count AS gl, n.search_vector::text AS tsv`,
    from: sql`nodes n
        JOIN unnest(${pgArray(docs.map(([id]) => id))}::uuid[], ${pgArray(docs.map(([, v]) => String(v)))}::int[]) AS w(id, version)
          ON n.document_id = w.id AND n.version = w.version`,
    where: sql`n.node_type IN (${sql.raw(LEAF_TYPES.map((t) => `'${t}'`).join(', '))})`,
    key: sql`n.id`,
    keyType: 'uuid',
    rowBytes: sql`96 + coalesce(octet_length(n.search_vector::text), 0)`,
  });
  const byDoc = new Map<string, IndexedLeaf[]>();
  for (const row of rows) {
    const leaves = byDoc.get(row.document_id) ?? [];
    leaves.push({
      id: row.id,
      ordinal: Number(row.ordinal),
      dl: Number(row.dl),
      gl: Number(row.gl),
      terms: row.tsv ? parseTsvectorCounts(row.tsv) : new Map(),
    });
    byDoc.set(row.document_id, leaves);
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
