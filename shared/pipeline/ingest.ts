import { eq } from 'drizzle-orm';
import { schema } from '../db/index.ts';
import { reasonOf } from '../errors.ts';
import { assertSafeKey } from '../storage/keys.ts';
import { findOrCreateDocument } from './documents.ts';
import { createPipelineRunner, type PipelineRunner, type PipelineRunnerOptions } from './runner.ts';
import type { PipelineDeps, PipelineEvent, PipelineOutcome } from './types.ts';

export type { PipelineEvent, PipelineOutcome } from './types.ts';

const { documents } = schema;

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
  options: PipelineRunnerOptions & { runner?: PipelineRunner } = {},
): IngestService {
  const runner = options.runner ?? createPipelineRunner(deps, options);
  const pending = new Set<Promise<unknown>>();

  async function start(
    files: IngestFile[],
    onOutcome?: (outcome: IngestOutcome) => void,
    onEvent?: (event: PipelineEvent) => void,
  ): Promise<{ submitted: SubmittedFile[]; outcomes: Promise<IngestOutcome>[] }> {
    for (const file of files) assertSafeKey(file.key);
    const submitted: SubmittedFile[] = [];
    for (const file of files) {
      await deps.store.put(file.key, file.bytes, { contentType: file.contentType });
      const filename = file.filename ?? file.key.slice(file.key.lastIndexOf('/') + 1);
      const doc = await findOrCreateDocument(deps.db, { key: file.key, filename, status: 'queued' });
      await deps.db
        .update(documents)
        .set({ status: 'queued', statusDetail: null, filename, updatedAt: new Date() })
        .where(eq(documents.id, doc.id));
      submitted.push({ key: file.key, documentId: doc.id, status: 'queued' });
    }
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
      pending.add(done);
      void done.finally(() => pending.delete(done));
      return done;
    });
    return { submitted, outcomes };
  }

  return {
    async submit(files) {
      return (await start(files)).submitted;
    },
    async ingest(files, onOutcome, onEvent) {
      const { outcomes } = await start(files, onOutcome, onEvent);
      return Promise.all(outcomes);
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await runner.idle();
    },
  };
}
