import type { Config } from '../config/index.ts';
import type { DiffRange, DocumentDiff } from '../diff/index.ts';
import type { DocumentSummary, ListOptions, VersionSummary } from '../documents/index.ts';
import type { IngestOutcome } from '../pipeline/ingest.ts';
import type { QaEvent } from '../qa/events.ts';
import type { AskRequest } from '../qa/request.ts';
import type { SearchHit, SearchRequest } from '../search/index.ts';
import type { WatchStatus } from '../watch/index.ts';
import { locateData } from './data-folder.ts';
import type { InputFile } from './files.ts';
import { HttpBackend } from './http-backend.ts';

/** What the read-only commands need (status, versions, diff, search): the database, no pipeline. */
export interface Reader {
  readonly description: string;
  /** A search, of one collection only when `collection` is given. */
  search(request: SearchRequest, collection?: string): Promise<SearchHit[]>;
  /** Documents with their status, filtered and paged as `GET /api/documents` (`?collection=`). */
  documents(options: ListOptions, collection?: string): Promise<{ items: DocumentSummary[]; total: number }>;
  /** A document (by id or key) with its versions, newest first. */
  versions(keyOrId: string): Promise<{ document: DocumentSummary; versions: VersionSummary[] }>;
  /** What changed between two versions of a document (by id or key); default previous vs current. */
  diff(keyOrId: string, range: DiffRange): Promise<DocumentDiff>;
  /** The watched folders: the server's watcher, or (in-process, nothing watching) `watch.directories` with counts. */
  watchStatus(): Promise<WatchStatus>;
  close(): Promise<void>;
}

/** What the CLI needs; served in-process, or by the running server when one holds the data folder. */
export interface Backend extends Reader {
  /** Ingests the files, into `collection` when given (stored under `collections/<name>/`). */
  ingest(
    documents: InputFile[],
    assets: InputFile[],
    onOutcome: (o: IngestOutcome) => void,
    collection?: string,
  ): Promise<IngestOutcome[]>;
  /**
   * Streams an answer, from one collection's documents only when `collection` is given; `signal`
   * stops it (the stream ends, the backend stays usable).
   */
  ask(request: AskRequest, signal?: AbortSignal, collection?: string): AsyncIterable<QaEvent>;
  /** Deletes a document (by id or key); returns what it was. */
  remove(keyOrId: string): Promise<DocumentSummary>;
  /** Reindexes a document (by id or key) and waits for the outcome. */
  reindex(keyOrId: string): Promise<IngestOutcome>;
}

/**
 * The running server if one uses this data folder (PGlite is single-process, so the CLI must not
 * open the database beside it), else the product in-process. Only commands that add documents
 * (`create`) may start a new data folder; the others fail naming the folder they looked in.
 */
export async function openBackend(
  config: Config,
  options: { recover?: boolean; create?: boolean } = {},
): Promise<Backend> {
  const data = locateData(config, { create: options.create ?? false });
  if (data.kind === 'server') return new HttpBackend(data.lock.url, data.lock.token, data.lock.controlKey);
  const { openRuntimeBackend } = await import('./in-process-backend.ts');
  return openRuntimeBackend(config, options);
}

/**
 * For the read-only commands: the running server, else the data folder's database alone (no bucket,
 * pipeline or parsers are loaded, and nothing is created).
 */
export async function openReader(config: Config): Promise<Reader> {
  const data = locateData(config, { create: false });
  if (data.kind === 'server') return new HttpBackend(data.lock.url, data.lock.token, data.lock.controlKey);
  const { openDatabaseReader } = await import('./in-process-backend.ts');
  return openDatabaseReader(config);
}
