import type { Db } from '../db/client.ts';
import { type ReanalysisProgress, reanalyseStale } from '../index/reanalyse.ts';
import { errorFields, log } from '../log/logger.ts';

/** A re-analysis running beside the runtime. */
export interface BackgroundReanalysis {
  /** Resolves when it is over (done, stopped or failed: a failure is logged, not thrown). */
  done: Promise<ReanalysisProgress | undefined>;
  /** Asks it to stop after the current round and waits for it. */
  stop(): Promise<void>;
}

/**
 * Re-analyses in the background the current versions an older analysis indexed (`reanalyseStale`),
 * logging its progress; search keeps working meanwhile (each node is rewritten in place), and the
 * in-memory BM25 index reloads each version once its new analysis is recorded (its fingerprint holds
 * the analysis). A database indexed by the current analysis costs one count.
 */
export function startReanalysis(db: Db): BackgroundReanalysis {
  let stopping = false;
  const done = (async () => {
    // Let the runtime finish opening (and the server start listening) before the first round.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const result = await reanalyseStale(db, {
      stopped: () => stopping,
      onProgress: (p) => log.info('search: re-analysing with the current analysis', { ...p }),
    });
    if (result.versions > 0) log.info('search: re-analysis done', { ...result, stopped: stopping });
    return result;
  })().catch((error: unknown) => {
    log.error('search: re-analysis failed (retried on the next start)', errorFields(error));
    return undefined;
  });
  return {
    done,
    async stop() {
      stopping = true;
      await done;
    },
  };
}
