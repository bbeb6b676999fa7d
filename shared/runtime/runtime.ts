import { join } from 'node:path';
import type { Config } from '../config/index.ts';
import { ensureDeferredIndexes } from '../db/deferred-indexes.ts';
import { type Database, type Db, openDatabase } from '../db/index.ts';
import { plannerStatistics } from '../db/planner-statistics.ts';
import { createProviders } from '../llm/providers.ts';
import type { Providers } from '../llm/types.ts';
import { createIngestService, type IngestService } from '../pipeline/ingest.ts';
import {
  invalidateMemoryIndex,
  keepMemoryIndexSnapshot,
  saveMemoryIndexSnapshot,
} from '../search/memory-sync.ts';
import { createBlobStore } from '../storage/index.ts';
import type { BlobStore } from '../storage/types.ts';
import { qaDepsOf, type RuntimeQaDeps } from './qa-deps.ts';
import { type BackgroundReanalysis, startReanalysis } from './reanalysis.ts';

/** Everything a local process (server or CLI) works with, opened once from the configuration. */
export interface Runtime {
  config: Config;
  db: Db;
  store: BlobStore;
  providers: Providers;
  ingest: IngestService;
  /** What search and every question-answering mode take (a `QaDeps` is also a `SearchDeps`). */
  qa: RuntimeQaDeps;
  /**
   * The re-analysis of nodes an older analysis indexed, started in the background on open; absent
   * in Lambda, where a request must not start it (docs/aws.md, "Search analysis upgrades").
   */
  reanalysis?: BackgroundReanalysis;
  close(): Promise<void>;
}

/** Where the in-memory BM25 index of a data folder is kept between runs (`keepMemoryIndexSnapshot`). */
export const searchSnapshotFile = (config: Pick<Config, 'dataDir'>) =>
  join(config.dataDir, 'bm25-index.snapshot');

export interface RuntimeOptions {
  /** The configuration's database, already opening (`openDatabase(config)`), e.g. while modules load. */
  database?: Promise<Database>;
}

/**
 * Opens the database (applying migrations), the bucket, the providers and the pipeline runner, and
 * starts re-analysing in the background what an older analysis indexed (`startReanalysis`). The
 * in-memory BM25 index is read back from the data folder when first needed and written there on close.
 */
export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const providers = createProviders(config);
  const store = await createBlobStore(config);
  const database = await (options.database ?? openDatabase(config));
  await ensureDeferredIndexes(database.db);
  keepMemoryIndexSnapshot(database.db, searchSnapshotFile(config));
  const deps = { db: database.db, store, providers, config };
  // Postgres and Aurora analyze by themselves; PGlite has no autovacuum.
  const ingest = createIngestService(
    deps,
    database.driver === 'pglite' ? { statistics: plannerStatistics(database.db) } : {},
  );
  const reanalysis = startReanalysis(database.db);
  return {
    ...deps,
    ingest,
    qa: qaDepsOf(deps),
    reanalysis,
    async close() {
      await reanalysis.stop();
      await ingest.idle();
      await providers.ocr?.close?.();
      await saveMemoryIndexSnapshot(database.db);
      invalidateMemoryIndex(database.db);
      await database.close();
    },
  };
}
