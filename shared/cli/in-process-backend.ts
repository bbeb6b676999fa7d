import { resolve } from 'node:path';
import { ALL_COLLECTIONS, narrowScope } from '../access/scope.ts';
import type { Config } from '../config/index.ts';
import { type Db, openDatabase } from '../db/index.ts';
import { diffVersions } from '../diff/index.ts';
import {
  type ActivityOf,
  listDocuments,
  listVersions,
  resolveDocument,
  withActivity,
} from '../documents/index.ts';
import type { Reranker } from '../llm/rerank/types.ts';
import type { Embedder } from '../llm/types.ts';
import { stoppedWatchStatus } from '../watch/status.ts';
import type { Backend, Reader } from './backend.ts';
import { intoCollection, readInput } from './files.ts';

type SearchProviders = { embedder: Embedder; reranker?: Reranker };

/**
 * The read-only half over an opened database; `activityOf` says what this process runs (nothing, for
 * a reader). `providers` is called by the first search only: status, versions and diff load no embedder.
 */
function databaseReader(
  config: Config,
  db: Db,
  providers: () => Promise<SearchProviders>,
  activityOf: ActivityOf,
  close: () => Promise<void>,
): Reader {
  return {
    description: `${resolve(config.dataDir)} (in-process)`,
    // Loaded by the first search: status, versions and diff need none of it.
    search: async (request, collection) =>
      (await import('../search/index.ts')).search(
        {
          db,
          ...(await providers()),
          access: narrowScope(ALL_COLLECTIONS, collection),
          search: config.search,
        },
        request,
      ),
    async documents(options, collection) {
      const { items, total } = await listDocuments(db, narrowScope(ALL_COLLECTIONS, collection), options);
      return { items: items.map((doc) => withActivity(doc, activityOf)), total };
    },
    async versions(keyOrId) {
      const document = await resolveDocument(db, ALL_COLLECTIONS, keyOrId);
      return { document, versions: await listVersions(db, ALL_COLLECTIONS, document.id) };
    },
    async diff(keyOrId, range) {
      const document = await resolveDocument(db, ALL_COLLECTIONS, keyOrId);
      return diffVersions(db, ALL_COLLECTIONS, document.id, range);
    },
    watchStatus: () => stoppedWatchStatus(db, config),
    close,
  };
}

/**
 * The data folder's database alone, for status, versions, diff and search: no bucket, pipeline or
 * parsers are loaded. Nothing runs in this process, so a queued or processing document is `stopped`.
 */
export async function openDatabaseReader(config: Config): Promise<Reader> {
  // On this thread: the worker (which keeps a server's event loop free and times statements out)
  // costs a second thread's start-up and module loading, and a one-shot read is stopped by Ctrl-C.
  // Short-lived: a small buffer cache is quicker to start (`createPglite`).
  const embedded = { ...config.database.embedded, worker: false, shortLived: true };
  const database = await openDatabase({ ...config, database: { ...config.database, embedded } });
  let providers: Promise<SearchProviders> | undefined;
  const searchProviders = () => {
    providers ??= import('../llm/providers.ts').then(({ createProviders }) => createProviders(config));
    return providers;
  };
  // One search: ranking it in SQL beats loading every paragraph into the in-memory BM25 index first.
  const bm25 = { ...config.search.bm25, memoryIndex: false };
  return databaseReader(
    { ...config, search: { ...config.search, bm25 } },
    database.db,
    searchProviders,
    () => 'none',
    () => database.close(),
  );
}

/**
 * The whole product in-process on the data folder (loaded only when no server holds it: the runtime,
 * its pipeline and parsers cost seconds to load). `recover` finishes what a stopped process left.
 */
export async function openRuntimeBackend(
  config: Config,
  options: { recover?: boolean } = {},
): Promise<Backend> {
  const [{ openRuntime }, { recoverRuntime }, { ask }, { deleteDocument }] = await Promise.all([
    import('../runtime/runtime.ts'),
    import('../runtime/recover.ts'),
    import('../qa/ask.ts'),
    import('../documents/index.ts'),
  ]);
  const rt = await openRuntime(config);
  // Commands that wait for the pipeline also finish what a stopped process left (crash recovery);
  // a quick question must not wait for that.
  if (options.recover) {
    const report = await recoverRuntime(rt);
    const count = report.resumed.length + report.requeued.length + report.diverged.length;
    if (count > 0) process.stderr.write(`resuming ${count} interrupted ingestion(s)\n`);
    for (const failed of report.failed) {
      process.stderr.write(
        `interrupted version ${failed.version} of ${failed.documentId} failed: ${failed.reason}\n`,
      );
    }
  }
  const reader = databaseReader(
    config,
    rt.db,
    async () => rt.qa,
    (key) => rt.ingest.activity(key),
    () => rt.close(),
  );
  return {
    ...reader,
    async ingest(documents, assets, onOutcome, collection) {
      for (const asset of assets) await rt.store.put(intoCollection(asset, collection).key, readInput(asset));
      const files = documents.map((d) => ({
        key: intoCollection(d, collection).key,
        filename: d.filename,
        bytes: readInput(d),
      }));
      return rt.ingest.ingest(files, onOutcome);
    },
    ask: (request, signal, collection) =>
      ask({ ...rt.qa, access: narrowScope(ALL_COLLECTIONS, collection) }, request, signal),
    async remove(keyOrId) {
      const document = await resolveDocument(rt.db, ALL_COLLECTIONS, keyOrId);
      await deleteDocument(rt.db, rt.store, document.id);
      return document;
    },
    async reindex(keyOrId) {
      const document = await resolveDocument(rt.db, ALL_COLLECTIONS, keyOrId);
      return (await rt.ingest.reindex(document.id)).done;
    },
  };
}
