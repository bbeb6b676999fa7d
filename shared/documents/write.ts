import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows, schema } from '../db/index.ts';
import type { DocumentStatus } from '../db/schema.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { BlobStore } from '../storage/types.ts';

const { documents } = schema;

export type DocumentRow = typeof documents.$inferSelect;

/** What Register needs of a document's latest version to decide on a new one. */
export interface LatestVersion {
  version: number;
  fileHash: string;
  status: string;
  error: string | null;
  sequencer: string | null;
}

/** A live document and its latest version (null: none yet), as `findOrCreateDocument` finds them. */
export interface FoundDocument {
  id: string;
  key: string;
  filename: string;
  latest: LatestVersion | null;
}

/**
 * The live document for a key, created (with `status`) when there is none, with its latest
 * version read in the same statement. Concurrent callers for one key get the same row: the partial
 * unique index `documents_live_key` lets exactly one insert win and the others re-select it. With
 * `documentId` the row must exist, be live and hold the key.
 *
 * @example const doc = await findOrCreateDocument(db, { key: 'uploads/a.md', filename: 'a.md' }); doc.latest // null
 */
export async function findOrCreateDocument(
  db: Db,
  args: { key: string; filename: string; collection: string; documentId?: string; status?: DocumentStatus },
): Promise<FoundDocument> {
  if (args.documentId) {
    const [doc] = await selectWithLatest(db, sql`d.id = ${args.documentId}::uuid`);
    if (!doc) throw new NotFoundError(`No live document with id ${args.documentId}`);
    if (doc.key !== args.key)
      throw new ValidationError(`Document ${args.documentId} holds key ${doc.key}, not ${args.key}`);
    return doc;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const [existing] = await selectWithLatest(db, sql`d.key = ${args.key}`);
    if (existing) return existing;
    const [created] = await db
      .insert(documents)
      .values({
        key: args.key,
        filename: args.filename,
        collection: args.collection,
        status: args.status ?? 'queued',
      })
      .onConflictDoNothing()
      .returning({ id: documents.id, key: documents.key, filename: documents.filename });
    if (created) return { ...created, latest: null };
  }
  // Three lost races in a row means the winner was deleted each time: report rather than spin.
  throw new Error(`Could not find or create the document for key ${args.key}`);
}

/**
 * The latest version of a document (null: none), as `findOrCreateDocument` reads it.
 *
 * @example const latest = await latestVersion(db, documentId); latest?.version // 3
 */
export async function latestVersion(db: Db, documentId: string): Promise<LatestVersion | null> {
  const [row] = await queryRows<LatestRow>(
    db,
    sql`SELECT ${LATEST_COLUMNS} FROM ${latestOf(sql`${documentId}::uuid`)} l`,
  );
  return row ? latestFrom(row) : null;
}

type LatestRow = {
  version: number | null;
  file_hash: string;
  status: string;
  error: string | null;
  sequencer: string | null;
};

const LATEST_COLUMNS = sql.raw('l.version, l.file_hash, l.status, l.error, l.sequencer');

function latestOf(documentId: SQL): SQL {
  return sql`(SELECT version, file_hash, status, error, sequencer FROM document_versions
    WHERE document_id = ${documentId} ORDER BY version DESC LIMIT 1)`;
}

function latestFrom(row: LatestRow): LatestVersion | null {
  if (row.version === null) return null;
  return {
    version: Number(row.version),
    fileHash: row.file_hash,
    status: row.status,
    error: row.error,
    sequencer: row.sequencer,
  };
}

async function selectWithLatest(db: Db, where: SQL): Promise<FoundDocument[]> {
  const rows = await queryRows<LatestRow & { id: string; key: string; filename: string }>(
    db,
    sql`SELECT d.id, d.key, d.filename, ${LATEST_COLUMNS}
        FROM documents d LEFT JOIN LATERAL ${latestOf(sql`d.id`)} l ON true
        WHERE ${where} AND d.deleted_at IS NULL`,
  );
  return rows.map((row) => ({ id: row.id, key: row.key, filename: row.filename, latest: latestFrom(row) }));
}

/**
 * Marks the live document for a key `queued` (creating it if there is none) in one statement: the
 * upload path answers with its id at once. Safe under concurrency through `documents_live_key`.
 */
export async function queueDocument(
  db: Db,
  args: { key: string; filename: string; collection: string },
): Promise<DocumentRow> {
  const [doc] = await db
    .insert(documents)
    .values({ key: args.key, filename: args.filename, collection: args.collection, status: 'queued' })
    .onConflictDoUpdate({
      target: documents.key,
      targetWhere: sql`${documents.deletedAt} IS NULL`,
      set: { status: 'queued', statusDetail: null, filename: args.filename, updatedAt: new Date() },
    })
    .returning();
  if (!doc) throw new Error(`Could not queue the document for key ${args.key}`);
  return doc;
}

/**
 * Derives a document's status from its versions after a version settled (or was found unchanged):
 * a version still processing keeps it `processing`; with a current version it is `ready` (noting a
 * newer failed version); without one, `failed` with the latest failure's reason.
 */
export async function settleDocumentStatus(db: Db, documentId: string): Promise<void> {
  await db.execute(settleStatement(documentId));
}

/**
 * Activates a version in one statement (atomic by itself): it becomes `ready` (`stats` merged into
 * its stats with its `durationMs`), the live document's current version unless a newer one already
 * is (executions may finish out of order), and the document's status is settled as by
 * `settleDocumentStatus`. With `onlyFirst` it happens only while the document has no current version
 * other than this one (the caller checks a reindex's result first otherwise). False when nothing
 * happened: the document is deleted (or, with `onlyFirst`, has another current version).
 *
 * @example if (!(await activateVersion(db, { documentId, version: 1 }, {}, { onlyFirst: true }))) { ... }
 */
export async function activateVersion(
  db: Db,
  ref: { documentId: string; version: number },
  stats: Record<string, number>,
  options: { onlyFirst?: boolean } = {},
): Promise<boolean> {
  const guard = options.onlyFirst
    ? sql`AND (d.current_version IS NULL OR d.current_version = ${ref.version}::int)`
    : sql``;
  const rows = await queryRows<{ version: number }>(
    db,
    sql`
    WITH d AS (${settleStatement(ref.documentId, ref.version, guard)} RETURNING d.id)
    UPDATE document_versions SET status = 'ready', step = 'activate', error = NULL,
      completed_at = now(), updated_at = now(),
      stats = stats || ${JSON.stringify(stats)}::jsonb || jsonb_build_object('durationMs',
        greatest(0, round(extract(epoch FROM clock_timestamp() - created_at) * 1000))::bigint)
    WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int AND EXISTS (SELECT 1 FROM d)
    RETURNING version`,
  );
  return rows.length > 0;
}

/**
 * The UPDATE that settles a live document's status from its latest version. With `activating` that
 * version counts as `ready` and becomes the current one unless a newer one is, `guard` narrowing the
 * document row further.
 */
function settleStatement(documentId: string, activating?: number, guard: SQL = sql``): SQL {
  const current =
    activating === undefined
      ? sql`d.current_version`
      : sql`greatest(coalesce(d.current_version, ${activating}::int), ${activating}::int)`;
  const latestStatus =
    activating === undefined
      ? sql`status`
      : sql`CASE WHEN version = ${activating}::int THEN 'ready' ELSE status END`;
  return sql`
    UPDATE documents d SET
      status = CASE
        WHEN l.status = 'processing' THEN 'processing'
        WHEN ${current} IS NOT NULL OR l.status = 'ready' THEN 'ready'
        ELSE 'failed' END,
      status_detail = CASE
        WHEN l.status = 'processing' THEN l.step
        WHEN ${current} IS NOT NULL THEN
          CASE WHEN l.status = 'failed' AND l.version > ${current}
            THEN 'version ' || l.version || ' failed: ' || coalesce(l.error, 'unknown error') END
        WHEN l.status = 'failed' THEN l.error END,
      failure_code = CASE WHEN l.status = 'failed' THEN l.error_code END,
      current_version = ${current},
      updated_at = now()
    FROM (
      SELECT version, ${latestStatus} AS status, step, error, error_code FROM document_versions
      WHERE document_id = ${documentId}::uuid ORDER BY version DESC LIMIT 1
    ) l
    WHERE d.id = ${documentId}::uuid AND d.deleted_at IS NULL ${guard}`;
}

/**
 * Marks a live document `queued` for a reindex of its stored object and returns its key; the caller
 * starts the pipeline (`force: true`). Fails with NotFoundError when the document or its object is
 * gone.
 *
 * @example const { key } = await queueReindex(db, store, documentId);
 */
export async function queueReindex(
  db: Db,
  store: Pick<BlobStore, 'head'>,
  documentId: string,
): Promise<{ key: string }> {
  const live = and(eq(documents.id, documentId), isNull(documents.deletedAt));
  const [doc] = await db.select({ key: documents.key }).from(documents).where(live);
  if (!doc) throw new NotFoundError(`No document with id ${documentId}`);
  if (!(await store.head(doc.key))) {
    throw new NotFoundError(`The stored object ${doc.key} of document ${documentId} is gone`);
  }
  await db
    .update(documents)
    .set({ status: 'queued', statusDetail: 'reindex', failureCode: null, updatedAt: new Date() })
    .where(live);
  return { key: doc.key };
}
