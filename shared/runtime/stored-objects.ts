import { sql } from 'drizzle-orm';
import { mapLimit } from '../async/limiter.ts';
import { type Db, queryRows } from '../db/client.ts';
import { contentHash } from '../pipeline/unchanged.ts';
import type { BlobStore } from '../storage/types.ts';

/** A live document whose stored object is not the bytes its latest stored version recorded. */
export interface DivergedObject {
  documentId: string;
  key: string;
  /** What differs: `size 120 != 98` or `hash`. */
  difference: string;
}

interface StoredVersion {
  documentId: string;
  key: string;
  version: number;
  fileHash: string;
  fileSize: number;
  createdAt: Date | string;
}

/**
 * Finds the live, settled documents (`ready` or `failed`: queued and processing ones are crash
 * recovery's) whose object in the bucket differs from their latest stored version: a process killed
 * between writing a re-upload's bytes and queueing its document leaves the new bytes in the bucket
 * while the database knows only the old version, and nothing queued. Sizes are compared for every
 * document; the SHA-256 only where the size matches and the object was written after the version was
 * registered (or the store cannot tell when it was written), so a start reads few objects. A missing
 * object is the bucket scan's (removeVanishedObjects), not this. Objects written at or after
 * `writtenBefore` (the start of the process checking, which serves uploads meanwhile) are its own
 * uploads, whose pipelines run: left alone.
 *
 * @example for (const d of await divergedObjects(db, store)) await ingest.reindex(d.documentId);
 */
export async function divergedObjects(
  db: Db,
  store: BlobStore,
  options: { writtenBefore?: Date } = {},
): Promise<DivergedObject[]> {
  const rows = await queryRows<StoredVersion>(
    db,
    sql`SELECT d.id AS "documentId", d.key, v.version, v.file_hash AS "fileHash",
          v.file_size AS "fileSize", v.created_at AS "createdAt"
        FROM documents d
        JOIN LATERAL (SELECT version, file_hash, file_size, created_at FROM document_versions w
                      WHERE w.document_id = d.id AND w.object_key <> ''
                      ORDER BY w.version DESC LIMIT 1) v ON true
        WHERE d.deleted_at IS NULL AND d.status IN ('ready', 'failed')
        ORDER BY d.key`,
  );
  // Looked at several at once: one at a time, a start waited for 1,000 file stats in a row (1.5 s
  // over 1,000 documents at load ~20), and the wait grew with the corpus.
  const found = await mapLimit(rows, HEADS_AT_ONCE, (row) => difference(store, row, options.writtenBefore));
  return rows.flatMap((row, i) => {
    const what = found[i];
    return what ? [{ ...pick(row), difference: what }] : [];
  });
}

/** Objects looked at (stat, and hashed where needed) at once. */
const HEADS_AT_ONCE = 8;

/** How a document's stored object differs from its latest stored version, if it does. */
async function difference(
  store: BlobStore,
  row: StoredVersion,
  writtenBefore: Date | undefined,
): Promise<string | undefined> {
  const head = await store.head(row.key);
  if (!head) return undefined;
  if (writtenBefore && head.lastModified && head.lastModified >= writtenBefore) return undefined;
  const recorded = Number(row.fileSize);
  if (head.size !== recorded) return `size ${head.size} != ${recorded}`;
  // Refused unread (too large): no hash was recorded, the size is all there is to compare.
  if (!row.fileHash) return undefined;
  const registered = new Date(row.createdAt).getTime();
  if (head.lastModified && head.lastModified.getTime() < registered) return undefined;
  return contentHash(await store.get(row.key)) !== row.fileHash ? 'hash' : undefined;
}

function pick(row: StoredVersion): Pick<DivergedObject, 'documentId' | 'key'> {
  return { documentId: row.documentId, key: row.key };
}
