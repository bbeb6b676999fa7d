import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';
import type { BlobStore } from '../storage/types.ts';
import { attachmentPrefix, listAttachments } from './attachments.ts';

const { documents, documentVersions, nodes } = schema;

/** The bucket prefix holding everything derived from a document (renditions, images). */
export function derivedPrefix(documentId: string): string {
  return `documents/${documentId}/`;
}

/**
 * Deletes a document, in one transaction: it leaves search at once (its nodes go, cascading to
 * embeddings and image rows), it leaves its topics (links removed; a topic left with no document
 * disappears), and its version history is kept as `deleted`. Then its derived blobs are removed, and
 * then its original objects, each only if it is still there: an object already removed (the S3
 * deletion that started a removal) is not deleted again, which the removing function may not be
 * allowed to do, and derived files go first so that a refused original leaves nothing orphaned. A
 * later upload of the same key starts a fresh history. A message's attachments are deleted with it.
 *
 * @example await deleteDocument(db, store, id); // search and topics no longer see it
 */
export async function deleteDocument(db: Db, store: BlobStore, id: string): Promise<void> {
  const keys = await db.transaction(async (tx) => {
    const [doc] = await tx
      .update(documents)
      .set({ deletedAt: new Date(), status: 'deleted', statusDetail: null, updatedAt: new Date() })
      .where(and(eq(documents.id, id), isNull(documents.deletedAt)))
      .returning({ key: documents.key });
    if (!doc) throw new NotFoundError(`No document with id ${id}`);
    await tx.delete(nodes).where(eq(nodes.documentId, id));
    await unlinkTopics(tx, id);
    // Versions still processing end here; their executions find the document gone at Activate.
    await tx
      .update(documentVersions)
      .set({ status: 'failed', error: 'the document was deleted', updatedAt: new Date() })
      .where(and(eq(documentVersions.documentId, id), eq(documentVersions.status, 'processing')));
    const versions = await tx
      .select({ objectKey: documentVersions.objectKey })
      .from(documentVersions)
      .where(eq(documentVersions.documentId, id));
    return new Set([doc.key, ...versions.map((v) => v.objectKey)]);
  });
  await store.deletePrefix(derivedPrefix(id));
  for (const key of keys) if (await store.head(key)) await store.delete(key);
  // A message's attachments go with it (theirs with them, for a forwarded message).
  for (const attached of await listAttachments(db, id)) {
    await deleteDocument(db, store, attached.id).catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
    });
  }
  await store.deletePrefix(attachmentPrefix(id));
}

/**
 * Removes a document's topic links and deletes the topics it leaves with no document, in one
 * statement.
 */
export async function unlinkTopics(db: Db, documentId: string): Promise<void> {
  await db.execute(sql`
    WITH unlinked AS (
      DELETE FROM document_topics WHERE document_id = ${documentId}::uuid RETURNING topic_id
    )
    DELETE FROM topics t WHERE t.id IN (SELECT topic_id FROM unlinked)
      AND NOT EXISTS (
        SELECT 1 FROM document_topics dt
        WHERE dt.topic_id = t.id AND dt.document_id <> ${documentId}::uuid
      )`);
}
