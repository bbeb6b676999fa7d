import { and, eq, isNull } from 'drizzle-orm';
import { type Db, schema } from '../db/index.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { BlobStore } from '../storage/types.ts';

const { documents, documentVersions } = schema;

/**
 * Moves a live document to another key (a watched file renamed or moved with the same bytes): it
 * keeps its id, its versions and everything derived from them. The object is written under the new
 * key before the rows point there, and the old object is removed after, so a bucket scan never sees
 * the document without its object.
 *
 * @throws NotFoundError when no live document has `fromKey`; ValidationError when `toKey` is taken.
 * @example await renameDocument(db, store, { fromKey: 'watch/docs/a.md', toKey: 'watch/docs/old/a.md', bytes })
 */
export async function renameDocument(
  db: Db,
  store: BlobStore,
  move: { fromKey: string; toKey: string; bytes: Uint8Array },
): Promise<{ documentId: string }> {
  const live = (key: string) =>
    db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.key, key), isNull(documents.deletedAt)));
  const [doc] = await live(move.fromKey);
  if (!doc) throw new NotFoundError(`No live document has the key ${move.fromKey}`);
  if ((await live(move.toKey)).length > 0) {
    throw new ValidationError(`A live document already has the key ${move.toKey}`);
  }
  await store.put(move.toKey, move.bytes);
  const filename = move.toKey.slice(move.toKey.lastIndexOf('/') + 1);
  await db.transaction(async (tx) => {
    await tx
      .update(documents)
      .set({ key: move.toKey, filename, updatedAt: new Date() })
      .where(eq(documents.id, doc.id));
    await tx
      .update(documentVersions)
      .set({ objectKey: move.toKey })
      .where(and(eq(documentVersions.documentId, doc.id), eq(documentVersions.objectKey, move.fromKey)));
  });
  await store.delete(move.fromKey);
  return { documentId: doc.id };
}
