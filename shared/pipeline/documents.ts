import { and, desc, eq, isNull } from 'drizzle-orm';
import { type Db, schema } from '../db/index.ts';
import type { DocumentStatus } from '../db/schema.ts';
import { NotFoundError, ValidationError } from '../errors.ts';

const { documents, documentVersions } = schema;

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
 * Derives a document's status from its versions after a version settled (or was found unchanged):
 * a version still processing keeps it `processing`; with a current version it is `ready` (noting a
 * newer failed version); without one, `failed` with the latest failure's reason.
 */
export async function settleDocumentStatus(db: Db, documentId: string): Promise<void> {
  const [doc] = await db
    .select({ currentVersion: documents.currentVersion })
    .from(documents)
    .where(eq(documents.id, documentId));
  const [latest] = await db
    .select()
    .from(documentVersions)
    .where(eq(documentVersions.documentId, documentId))
    .orderBy(desc(documentVersions.version))
    .limit(1);
  if (!doc || !latest) return;
  let status: DocumentStatus;
  let statusDetail: string | null = null;
  if (latest.status === 'processing') {
    status = 'processing';
    statusDetail = latest.step;
  } else if (doc.currentVersion !== null) {
    status = 'ready';
    if (latest.status === 'failed' && latest.version > doc.currentVersion)
      statusDetail = `version ${latest.version} failed: ${latest.error ?? 'unknown error'}`;
  } else {
    status = latest.status === 'ready' ? 'ready' : 'failed';
    statusDetail = latest.status === 'failed' ? latest.error : null;
  }
  await db
    .update(documents)
    .set({ status, statusDetail, updatedAt: new Date() })
    .where(and(eq(documents.id, documentId), isNull(documents.deletedAt)));
}
