import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/index.ts';
import type { BlobStore } from '../storage/types.ts';
import { deleteDocument } from './delete.ts';
import { normalizeSequencer } from './sequencer.ts';

export interface RemovedObject {
  key: string;
  /** The deletion's S3 `sequencer`, when the notice is an S3 event. */
  sequencer?: string;
}

export type RemovalOutcome =
  | { outcome: 'deleted'; documentId: string }
  | { outcome: 'ignored'; documentId?: string; reason: string };

/**
 * Handles the removal of an object from the bucket (an S3 "Object Deleted" event, or a local scan
 * that found the file gone): the live document for the key is deleted. Idempotent, and safe against
 * stale notices: nothing happens when the object exists again (re-created since) or when the notice
 * is older than the document's latest version.
 *
 * @example await removeObject(db, store, { key: 'uploads/a.md', sequencer: '0062E9A4B1C3D2E1F0' })
 */
export async function removeObject(
  db: Db,
  store: BlobStore,
  removed: RemovedObject,
): Promise<RemovalOutcome> {
  const [doc] = await queryRows<{ id: string; sequencer: string | null }>(
    db,
    sql`SELECT d.id, (SELECT max(v.sequencer) FROM document_versions v WHERE v.document_id = d.id) AS sequencer
        FROM documents d WHERE d.key = ${removed.key} AND d.deleted_at IS NULL`,
  );
  if (!doc) return { outcome: 'ignored', reason: `no live document holds ${removed.key}` };
  if (await store.head(removed.key)) {
    return { outcome: 'ignored', documentId: doc.id, reason: `${removed.key} exists again` };
  }
  if (removed.sequencer && doc.sequencer && normalizeSequencer(removed.sequencer) < doc.sequencer) {
    return { outcome: 'ignored', documentId: doc.id, reason: 'the removal is older than the latest version' };
  }
  await deleteDocument(db, store, doc.id);
  return { outcome: 'deleted', documentId: doc.id };
}

/**
 * The local equivalent of S3's deletion events: every live document whose object is no longer in
 * the bucket (a file removed from the bucket folder by hand) is deleted. Cheap locally (one `stat`
 * per document); run at start and periodically by the server.
 */
export async function removeVanishedObjects(db: Db, store: BlobStore): Promise<string[]> {
  // A document whose latest version was refused unread (a watched file over limits.maxFileBytes) has
  // no object by design: its file's removal reaches it through the watcher.
  const live = await queryRows<{ key: string }>(
    db,
    sql`SELECT d.key FROM documents d WHERE d.deleted_at IS NULL AND d.status <> 'queued'
          AND coalesce((SELECT v.object_key FROM document_versions v WHERE v.document_id = d.id
                        ORDER BY v.version DESC LIMIT 1), d.key) <> ''`,
  );
  const deleted: string[] = [];
  for (const { key } of live) {
    if (await store.head(key)) continue;
    const result = await removeObject(db, store, { key });
    if (result.outcome === 'deleted') deleted.push(key);
  }
  return deleted;
}

/**
 * Runs `removeVanishedObjects` now and then every `intervalMs` (the local server's removal notice):
 * a file deleted from the bucket folder leaves search within one interval. Returns a stop function.
 */
export function watchVanishedObjects(
  db: Db,
  store: BlobStore,
  options: { intervalMs: number; onRemoved?: (keys: string[]) => void; onError?: (error: unknown) => void },
): () => void {
  let running = false;
  const scan = async () => {
    if (running) return;
    running = true;
    try {
      const keys = await removeVanishedObjects(db, store);
      if (keys.length > 0) options.onRemoved?.(keys);
    } catch (error) {
      options.onError?.(error);
    } finally {
      running = false;
    }
  };
  void scan();
  const timer = setInterval(scan, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
