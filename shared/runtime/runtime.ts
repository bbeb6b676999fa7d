import type { Config } from '../config/index.ts';
import { ensureTrigramIndex } from '../db/deferred-indexes.ts';
import { type Db, openDatabase } from '../db/index.ts';
import { createProviders } from '../llm/providers.ts';
import type { Providers } from '../llm/types.ts';
import { createIngestService, type IngestService } from '../pipeline/ingest.ts';
import type { DocumentsDeps } from '../qa/documents/flow.ts';
import type { TwoStageDeps } from '../qa/two-stage/flow.ts';
import { createBlobStore } from '../storage/index.ts';
import type { BlobStore } from '../storage/types.ts';

/** Everything a local process (server or CLI) works with, opened once from the configuration. */
export interface Runtime {
  config: Config;
  db: Db;
  store: BlobStore;
  providers: Providers;
  ingest: IngestService;
  /** What search and every question-answering mode take (a `QaDeps` is also a `SearchDeps`). */
  qa: TwoStageDeps & DocumentsDeps;
  close(): Promise<void>;
}

/** Opens the database (applying migrations), the bucket, the providers and the pipeline runner. */
export async function openRuntime(config: Config): Promise<Runtime> {
  const providers = createProviders(config);
  const store = createBlobStore(config);
  const database = await openDatabase(config);
  await ensureTrigramIndex(database.db);
  const deps = { db: database.db, store, providers, config };
  const ingest = createIngestService(deps);
  return {
    ...deps,
    ingest,
    qa: {
      db: database.db,
      embedder: providers.embedder,
      search: config.search,
      providers,
      store,
      qa: { maxIterations: config.qa.maxIterations, toolProtocol: config.qa.toolProtocol },
      twoStage: config.qa.twoStage,
      documents: config.qa.documents,
    },
    async close() {
      await ingest.idle();
      await providers.ocr?.close?.();
      await database.close();
    },
  };
}
