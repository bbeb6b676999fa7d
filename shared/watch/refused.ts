import type { Db } from '#shared/db/client.ts';
import { documentVersions } from '#shared/db/schema.ts';
import { findOrCreateDocument, latestVersion, settleDocumentStatus } from '#shared/documents/write.ts';

/** The object key of a version whose file was refused before it was read: nothing is in the bucket. */
export const NO_OBJECT = '';

/**
 * Records a watched file refused before it was read or copied (larger than `limits.maxFileBytes`) as
 * a failed version of its document with the reason: the bucket gets nothing (the object key is
 * empty), the previous version, if any, stays current. A refusal already recorded with the same
 * reason (the same file seen again, at a restart) adds no version.
 *
 * @example await recordRefusedFile(db, { key: 'watch/docs/huge.pdf', filename: 'huge.pdf', collection: 'default', size, reason })
 */
export async function recordRefusedFile(
  db: Db,
  file: { key: string; filename: string; collection: string; size: number; reason: string },
): Promise<{ documentId: string; version: number }> {
  const doc = await findOrCreateDocument(db, {
    key: file.key,
    filename: file.filename,
    collection: file.collection,
    status: 'failed',
  });
  let latest = doc.latest;
  for (let attempt = 1; attempt <= 3; attempt++) {
    if (latest?.status === 'failed' && latest.fileHash === '' && latest.error === file.reason) {
      return { documentId: doc.id, version: latest.version };
    }
    const version = (latest?.version ?? 0) + 1;
    const [created] = await db
      .insert(documentVersions)
      .values({
        documentId: doc.id,
        version,
        fileHash: '',
        fileSize: file.size,
        fileType: 'unknown',
        objectKey: NO_OBJECT,
        status: 'failed',
        step: 'register',
        error: file.reason,
        completedAt: new Date(),
      })
      .onConflictDoNothing()
      .returning({ version: documentVersions.version });
    if (created) {
      await settleDocumentStatus(db, doc.id);
      return { documentId: doc.id, version };
    }
    // Another writer took number n+1 meanwhile: decide again on the newest version.
    latest = await latestVersion(db, doc.id);
  }
  throw new Error(`Could not record the refusal of ${file.key}: too many concurrent writers`);
}
