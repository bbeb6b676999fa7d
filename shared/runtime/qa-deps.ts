import { ALL_COLLECTIONS } from '../access/scope.ts';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/client.ts';
import type { Providers } from '../llm/types.ts';
import type { DocumentsDeps } from '../qa/documents/flow.ts';
import type { TwoStageDeps } from '../qa/two-stage/flow.ts';
import type { BlobStore } from '../storage/types.ts';

/** What search and every question-answering mode take (a `QaDeps` is also a `SearchDeps`). */
export type RuntimeQaDeps = TwoStageDeps & DocumentsDeps;

/**
 * The question-answering dependencies of an opened database, bucket and providers, with every `qa`
 * setting of the configuration: one place for the local runtime and the ask function alike.
 */
export function qaDepsOf(opened: {
  db: Db;
  store: BlobStore;
  providers: Providers;
  config: Config;
}): RuntimeQaDeps {
  const { db, store, providers, config } = opened;
  return {
    db,
    // The process-wide default; each HTTP request replaces it with its own (shared/api/access.ts).
    access: ALL_COLLECTIONS,
    embedder: providers.embedder,
    reranker: providers.reranker,
    search: config.search,
    providers,
    store,
    qa: {
      maxIterations: config.qa.maxIterations,
      toolProtocol: config.qa.toolProtocol,
      routing: config.qa.routing,
      historyTokens: config.qa.historyTokens,
    },
    twoStage: config.qa.twoStage,
    documents: config.qa.documents,
  };
}
