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
  const diverged = await divergedObjects(rt.db, rt.store);
  for (const object of diverged) await rt.ingest.reindex(object.documentId);
  return { ...report, diverged };
}
