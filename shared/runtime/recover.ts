import type { RecoveryReport } from '../pipeline/recovery.ts';
import type { Runtime } from './runtime.ts';
import { type DivergedObject, divergedObjects } from './stored-objects.ts';

/** What the start-up recovery did: the pipeline's report, and the objects found differing. */
export interface StartupRecovery extends RecoveryReport {
  /** Documents whose stored object differs from the database: each queued through a reindex. */
  diverged: DivergedObject[];
}

/**
 * Crash recovery when a local process opens the product, before new work: what the pipeline left
 * unfinished is resumed or failed (`ingest.recover`), then every settled document whose stored object
 * differs from its latest version (`divergedObjects`) is queued through a reindex of that object, so
 * that the bucket and the database agree again.
 *
 * @example const report = await recoverRuntime(rt); report.diverged.length // 1 after a kill mid re-upload
 */
export async function recoverRuntime(rt: Pick<Runtime, 'db' | 'store' | 'ingest'>): Promise<StartupRecovery> {
  const report = await rt.ingest.recover();
  return { ...report, diverged: await requeueDivergedObjects(rt) };
}

/**
 * Queues a reindex of every settled document whose stored object differs from its latest version
 * (`divergedObjects`, objects written from `writtenBefore` on left to their own pipelines): the
 * second half of `recoverRuntime`, which a server runs once listening (a stat per document: ~1 s at
 * 10,000).
 */
export async function requeueDivergedObjects(
  rt: Pick<Runtime, 'db' | 'store' | 'ingest'>,
  options: { writtenBefore?: Date } = {},
): Promise<DivergedObject[]> {
  const diverged = await divergedObjects(rt.db, rt.store, options);
  for (const object of diverged) await rt.ingest.reindex(object.documentId);
  return diverged;
}
