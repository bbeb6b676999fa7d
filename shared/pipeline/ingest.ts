import { reasonOf } from '../errors.ts';
import { assertSafeKey } from '../storage/keys.ts';
import { BULK_MIN_FILES, createBulkIndexWindow } from './bulk-index.ts';
import { queueDocument } from './documents.ts';
import { createPipelineRunner, type PipelineRunner, type PipelineRunnerOptions } from './runner.ts';
import type { PipelineDeps, PipelineEvent, PipelineOutcome } from './types.ts';

export type { PipelineEvent, PipelineOutcome } from './types.ts';

/** A file to ingest: its bucket key and bytes (`filename` defaults to the key's last segment). */
export interface IngestFile {
  key: string;
  filename?: string;
  bytes: Uint8Array;
  contentType?: string;
}

export interface SubmittedFile {
  key: string;
  documentId: string;
  status: 'queued';
}

export type IngestOutcome = PipelineOutcome & { key: string; documentId: string };

export interface IngestService {
  /**
   * Stores each file, creates or finds its live document (status `queued`) and starts its pipeline
   * in the background; answers at once with the document ids.
   */
  submit(files: IngestFile[]): Promise<SubmittedFile[]>;
  /**
   * Like `submit`, then waits for every file's pipeline; `onOutcome` hears each file as it ends,
   * `onEvent` every step of these files. One file's failure never affects the others.
   */
  ingest(
    files: IngestFile[],
    onOutcome?: (outcome: IngestOutcome) => void,
    onEvent?: (event: PipelineEvent) => void,
  ): Promise<IngestOutcome[]>;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
}

/**
 * The ingestion entry point of the API and the CLI, over the local pipeline runner.
 *
 * @example
 * const ingest = createIngestService({ db, store, providers, config });
 * const [submitted] = await ingest.submit([{ key: 'uploads/a.md', bytes }]); // { documentId, status: 'queued' }
 * await ingest.idle();
 */
export function createIngestService(
  deps: PipelineDeps,
  options: PipelineRunnerOptions & {
    runner?: PipelineRunner;
    /** Batches of at least this many files are bulk loads (HNSW index built once at the end). */
    bulkMinFiles?: number;
  } = {},
): IngestService {
  const bulk = createBulkIndexWindow(deps);
  const bulkMinFiles = options.bulkMinFiles ?? BULK_MIN_FILES;
  const runner =
    options.runner ??
    createPipelineRunner(
      { ...deps, deferVectorIndex: () => bulk.deferred() || (deps.deferVectorIndex?.() ?? false) },
      options,
    );
  const pending = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise));
    return promise;
  };

  async function start(
    files: IngestFile[],
    onOutcome?: (outcome: IngestOutcome) => void,
    onEvent?: (event: PipelineEvent) => void,
  ): Promise<{ submitted: SubmittedFile[]; outcomes: Promise<IngestOutcome>[]; indexed: Promise<void> }> {
    for (const file of files) assertSafeKey(file.key);
    const submitted: SubmittedFile[] = [];
    for (const file of files) {
      await deps.store.put(file.key, file.bytes, { contentType: file.contentType });
      const filename = file.filename ?? file.key.slice(file.key.lastIndexOf('/') + 1);
      const doc = await queueDocument(deps.db, { key: file.key, filename });
      submitted.push({ key: file.key, documentId: doc.id, status: 'queued' });
    }
    const isBulk = submitted.length >= bulkMinFiles;
    if (isBulk) await bulk.begin(submitted.length);
    const outcomes = submitted.map(({ key, documentId }) => {
      const done = runner
        .run({ key, documentId }, onEvent)
        .catch((error): PipelineOutcome => {
          console.error(`[ingest] ${key}: ${reasonOf(error)}`);
          return { documentId, status: 'failed', error: reasonOf(error) };
        })
        .then((outcome): IngestOutcome => {
          const result = { ...outcome, key, documentId: outcome.documentId ?? documentId };
          try {
            onOutcome?.(result);
          } catch (error) {
            console.error(`[ingest] outcome listener failed: ${reasonOf(error)}`);
          }
          return result;
        });
      return track(done);
    });
    const indexed = isBulk ? track(Promise.allSettled(outcomes).then(() => bulk.end())) : Promise.resolve();
    return { submitted, outcomes, indexed };
  }

  return {
    async submit(files) {
      return (await start(files)).submitted;
    },
    async ingest(files, onOutcome, onEvent) {
      const { outcomes, indexed } = await start(files, onOutcome, onEvent);
      const results = await Promise.all(outcomes);
      // A bulk load is only done once its index is built: search right after must be fast.
      await indexed;
      return results;
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await runner.idle();
    },
  };
}
