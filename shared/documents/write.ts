import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Db, schema } from '../db/index.ts';
import type { DocumentStatus } from '../db/schema.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { BlobStore } from '../storage/types.ts';

const { documents } = schema;

export type DocumentRow = typeof documents.$inferSelect;

/**
 * The live document for a key, created (with `status`) when there is none. Concurrent callers for
 * one key get the same row: the partial unique index `documents_live_key` lets exactly one insert
 * win and the others re-select it. With `documentId` the row must exist, be live and hold the key.
 *
 * @example const doc = await findOrCreateDocument(db, { key: 'uploads/a.md', filename: 'a.md' });
 */
export async function findOrCreateDocument(
  db: Db,
  args: { key: string; filename: string; documentId?: string; status?: DocumentStatus },
): Promise<DocumentRow> {
  if (args.documentId) {
    const [doc] = await db
      .select()
      .from(documents)
      .where(and(eq(documents.id, args.documentId), isNull(documents.deletedAt)));
    if (!doc) throw new NotFoundError(`No live document with id ${args.documentId}`);
    if (doc.key !== args.key)
      throw new ValidationError(`Document ${args.documentId} holds key ${doc.key}, not ${args.key}`);
    return doc;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const [existing] = await db
      .select()
      .from(documents)
      .where(and(eq(documents.key, args.key), isNull(documents.deletedAt)));
    if (existing) return existing;
    const [created] = await db
      .insert(documents)
      .values({ key: args.key, filename: args.filename, status: args.status ?? 'queued' })
      .onConflictDoNothing()
      .returning();
    if (created) return created;
  }
  // Three lost races in a row means the winner was deleted each time: report rather than spin.
  throw new Error(`Could not find or create the document for key ${args.key}`);
}

/**
 * Marks the live document for a key `queued` (creating it if there is none) in one statement: the
 * upload path answers with its id at once. Safe under concurrency through `documents_live_key`.
 */
export async function queueDocument(db: Db, args: { key: string; filename: string }): Promise<DocumentRow> {
  const [doc] = await db
    .insert(documents)
    .values({ key: args.key, filename: args.filename, status: 'queued' })
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
  await db.execute(sql`
    UPDATE documents d SET
      status = CASE
        WHEN l.status = 'processing' THEN 'processing'
        WHEN d.current_version IS NOT NULL OR l.status = 'ready' THEN 'ready'
        ELSE 'failed' END,
      status_detail = CASE
        WHEN l.status = 'processing' THEN l.step
        WHEN d.current_version IS NOT NULL THEN
          CASE WHEN l.status = 'failed' AND l.version > d.current_version
            THEN 'version ' || l.version || ' failed: ' || coalesce(l.error, 'unknown error') END
        WHEN l.status = 'failed' THEN l.error END,
      updated_at = now()
    FROM (
      SELECT version, status, step, error FROM document_versions
      WHERE document_id = ${documentId}::uuid ORDER BY version DESC LIMIT 1
    ) l
    WHERE d.id = ${documentId}::uuid AND d.deleted_at IS NULL`);
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
    .set({ status: 'queued', statusDetail: 'reindex', updatedAt: new Date() })
    .where(live);
  return { key: doc.key };
}
