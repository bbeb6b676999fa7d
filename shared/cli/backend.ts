import type { Config } from '../config/index.ts';
import { type DiffRange, type DocumentDiff, diffVersions } from '../diff/index.ts';
import {
  type DocumentSummary,
  deleteDocument,
  type ListOptions,
  listDocuments,
  listVersions,
  resolveDocument,
  type VersionSummary,
  withActivity,
} from '../documents/index.ts';
import type { IngestOutcome } from '../pipeline/ingest.ts';
import { ask } from '../qa/ask.ts';
import type { QaEvent } from '../qa/events.ts';
import type { AskRequest } from '../qa/request.ts';
import { readServerLock } from '../runtime/lock.ts';
import { recoverRuntime } from '../runtime/recover.ts';
import { openRuntime } from '../runtime/runtime.ts';
import { type SearchHit, type SearchRequest, search } from '../search/index.ts';
import { stoppedWatchStatus, type WatchStatus } from '../watch/index.ts';
import { type InputFile, readInput } from './files.ts';
import { HttpBackend } from './http-backend.ts';

/** What the CLI needs; served in-process, or by the running server when one holds the data folder. */
export interface Backend {
  readonly description: string;
  ingest(
    documents: InputFile[],
    assets: InputFile[],
    onOutcome: (o: IngestOutcome) => void,
  ): Promise<IngestOutcome[]>;
  /** Streams an answer; `signal` stops it (the stream ends, the backend stays usable). */
  ask(request: AskRequest, signal?: AbortSignal): AsyncIterable<QaEvent>;
  search(request: SearchRequest): Promise<SearchHit[]>;
  /** Documents with their status, filtered and paged as `GET /api/documents`. */
  documents(options: ListOptions): Promise<{ items: DocumentSummary[]; total: number }>;
  /** A document (by id or key) with its versions, newest first. */
  versions(keyOrId: string): Promise<{ document: DocumentSummary; versions: VersionSummary[] }>;
  /** What changed between two versions of a document (by id or key); default previous vs current. */
  diff(keyOrId: string, range: DiffRange): Promise<DocumentDiff>;
  /** The watched folders: the server's watcher, or (in-process, nothing watching) `watch.directories` with counts. */
  watchStatus(): Promise<WatchStatus>;
  /** Deletes a document (by id or key); returns what it was. */
  remove(keyOrId: string): Promise<DocumentSummary>;
  /** Reindexes a document (by id or key) and waits for the outcome. */
  reindex(keyOrId: string): Promise<IngestOutcome>;
  close(): Promise<void>;
}

/**
 * The running server if one uses this data folder (PGlite is single-process, so the CLI must not
 * open the database beside it), else the product in-process.
 */
export async function openBackend(config: Config, options: { recover?: boolean } = {}): Promise<Backend> {
  const lock = readServerLock(config.dataDir);
  if (lock) return new HttpBackend(lock.url, lock.token);
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
  return {
    description: `in-process (data: ${config.dataDir})`,
    async ingest(documents, assets, onOutcome) {
      for (const asset of assets) await rt.store.put(asset.key, readInput(asset));
      const files = documents.map((d) => ({ key: d.key, filename: d.filename, bytes: readInput(d) }));
      return rt.ingest.ingest(files, onOutcome);
    },
    ask: (request, signal) => ask(rt.qa, request, signal),
    search: (request) => search(rt.qa, request),
    async documents(options) {
      const { items, total } = await listDocuments(rt.db, options);
      return { items: items.map((doc) => withActivity(doc, (key) => rt.ingest.activity(key))), total };
    },
    async versions(keyOrId) {
      const document = await resolveDocument(rt.db, keyOrId);
      return { document, versions: await listVersions(rt.db, document.id) };
    },
    async diff(keyOrId, range) {
      const document = await resolveDocument(rt.db, keyOrId);
      return diffVersions(rt.db, document.id, range);
    },
    watchStatus: () => stoppedWatchStatus(rt.db, config),
    async remove(keyOrId) {
      const document = await resolveDocument(rt.db, keyOrId);
      await deleteDocument(rt.db, rt.store, document.id);
      return document;
    },
    async reindex(keyOrId) {
      const document = await resolveDocument(rt.db, keyOrId);
      return (await rt.ingest.reindex(document.id)).done;
    },
    close: () => rt.close(),
  };
}
