import { sql } from 'drizzle-orm';
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
 * object is the bucket scan's (removeVanishedObjects), not this.
 *
 * @example for (const d of await divergedObjects(db, store)) await ingest.reindex(d.documentId);
 */
export async function divergedObjects(db: Db, store: BlobStore): Promise<DivergedObject[]> {
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
  const diverged: DivergedObject[] = [];
  for (const row of rows) {
    const head = await store.head(row.key);
    if (!head) continue;
    const recorded = Number(row.fileSize);
    if (head.size !== recorded) {
      diverged.push({ ...pick(row), difference: `size ${head.size} != ${recorded}` });
      continue;
    }
    // Refused unread (too large): no hash was recorded, the size is all there is to compare.
    if (!row.fileHash) continue;
    const registered = new Date(row.createdAt).getTime();
    if (head.lastModified && head.lastModified.getTime() < registered) continue;
    if (contentHash(await store.get(row.key)) !== row.fileHash) {
      diverged.push({ ...pick(row), difference: 'hash' });
    }
  }
  return diverged;
}

function pick(row: StoredVersion): Pick<DivergedObject, 'documentId' | 'key'> {
  return { documentId: row.documentId, key: row.key };
}
