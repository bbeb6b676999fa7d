import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';
import type { BlobStore } from '../storage/types.ts';

const { documents, documentVersions, nodes } = schema;

/** The bucket prefix holding everything derived from a document (renditions, images). */
export function derivedPrefix(documentId: string): string {
  return `documents/${documentId}/`;
}

/**
 * Deletes a document: it leaves search at once (its nodes go, cascading to embeddings and images
 * rows), its version history is kept as `deleted`, its original object and derived blobs are
 * removed. A later upload of the same key starts a fresh history.
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
    const versions = await tx
      .select({ objectKey: documentVersions.objectKey })
      .from(documentVersions)
      .where(eq(documentVersions.documentId, id));
    return new Set([doc.key, ...versions.map((v) => v.objectKey)]);
  });
  for (const key of keys) await store.delete(key);
  await store.deletePrefix(derivedPrefix(id));
}
