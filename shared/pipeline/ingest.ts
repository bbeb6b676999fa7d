import { errorFields, log } from '#shared/log/logger.ts';
import { collectionOfKey } from '../access/collection-of-key.ts';
import type { PlannerStatistics } from '../db/planner-statistics.ts';
import { type RemovalOutcome, removeObject } from '../documents/remove-object.ts';
import { localSequencer } from '../documents/sequencer.ts';
import { queueDocument, queueReindex } from '../documents/write.ts';
import { reasonOf } from '../errors.ts';
import { BULK_MIN_FILES, createBulkIndexWindow } from './bulk-index.ts';
import type { PipelineInput } from './contract.ts';
import { objectEventAction } from './object-events.ts';
import { type RecoveryReport, recoverInterrupted } from './recovery.ts';
import {
  createPipelineRunner,
  type PipelineActivity,
  type PipelineRunner,
  type PipelineRunnerOptions,
} from './runner.ts';
import { type IngestFile, type QueuedFile, type SubmittedFile, submitFiles } from './submit.ts';
import type { PipelineDeps, PipelineEvent, PipelineOutcome } from './types.ts';

export type { IngestFile, SubmittedFile } from './submit.ts';
export type { PipelineEvent, PipelineOutcome } from './types.ts';

/** How a file's ingestion ended; `documentId` is unknown only for a file refused before it had one. */
export type IngestOutcome = PipelineOutcome & { key: string };

export interface IngestService {
  /**
   * Stores each file, creates or finds its live document (status `queued`) and starts its pipeline
   * in the background; answers at once with the document ids. A file with the same bytes as its
   * document's latest version is answered `unchanged` at once, without an execution.
   */
  submit(files: IngestFile[]): Promise<SubmittedFile[]>;
  /**
   * Like `submit`, then waits for every file's pipeline and for the attachments of the messages
   * among them (ingested as documents of their own); `onOutcome` hears each file and attachment as it
   * ends, `onEvent` every step of these files. One file's failure never affects the others.
   */
  ingest(
    files: IngestFile[],
    onOutcome?: (outcome: IngestOutcome) => void,
    onEvent?: (event: PipelineEvent) => void,
  ): Promise<IngestOutcome[]>;
  /**
   * Re-runs the pipeline on a live document's stored object (after a parser or model change): a new
   * version only if the result differs from the current one (see Activate). Answers once queued;
   * `done` settles with the outcome (`unchanged` when nothing differed).
   */
  reindex(documentId: string): Promise<{ submitted: SubmittedFile; done: Promise<IngestOutcome> }>;
  /**
   * Handles an S3 event as EventBridge delivers it (`Object Created` ingests with the event's
   * sequencer, `Object Deleted` removes the document); the local bucket's removals come through
   * `removeObject` instead. Resolves when handled.
   */
  handleObjectEvent(event: unknown): Promise<PipelineOutcome | RemovalOutcome>;
  /**
   * Crash recovery (see recovery.ts): resumes or fails what a stopped process left unfinished. Call
   * once when the process opens the product, before new work. With a shared Postgres only work idle
   * for 20 minutes counts as interrupted.
   */
  recover(): Promise<RecoveryReport>;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  /**
   * What this process does for a key's pipeline now (`running`, `waiting` for a free slot, `none`);
   * `null` where another service runs the pipelines (AWS Step Functions) and this process cannot tell.
   */
  activity(key: string): PipelineActivity | null;
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
    /** Told of every document made ready (the embedded database refreshes its statistics). */
    statistics?: PlannerStatistics;
  } = {},
): IngestService {
  const bulk = createBulkIndexWindow(deps);
  const bulkMinFiles = options.bulkMinFiles ?? BULK_MIN_FILES;
  const runner =
    options.runner ??
    createPipelineRunner(
      {
        ...deps,
        deferVectorIndex: () => bulk.deferred() || (deps.deferVectorIndex?.() ?? false),
        ingestObjects: (keys) => {
          const spawn = track(ingestStored(keys));
          attachmentRuns.add(spawn);
          void spawn.finally(() => attachmentRuns.delete(spawn));
        },
      },
      options,
    );
  const pending = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise));
    return promise;
  };

  const notify = (listener: ((o: IngestOutcome) => void) | undefined, outcome: IngestOutcome) => {
    try {
      listener?.(outcome);
    } catch (error) {
      log.error('ingest: outcome listener failed', errorFields(error));
    }
  };

  /** Runs one execution, tracked for `idle()`; never rejects. */
  function execute(
    input: PipelineInput & { documentId: string },
    onOutcome?: (outcome: IngestOutcome) => void,
    onEvent?: (event: PipelineEvent) => void,
  ): Promise<IngestOutcome> {
    const { key, documentId } = input;
    const done = runner
      .run(input, onEvent)
      .catch((error): PipelineOutcome => {
        log.error('ingest: execution failed', { key, documentId, ...errorFields(error) });
        return { documentId, status: 'failed', error: reasonOf(error) };
      })
      .then((outcome): IngestOutcome => {
        if (outcome.status === 'ready' && options.statistics) void track(options.statistics.documentReady());
        const result = { ...outcome, key, documentId: outcome.documentId ?? documentId };
        notify(onOutcome, result);
        return result;
      });
    return track(done);
  }

  /** Who hears about attachments' outcomes: the `ingest` calls running while they are ingested. */
  const attachmentListeners = new Set<(outcome: IngestOutcome) => void>();
  /** Their executions and the calls starting them, so that `ingest` can wait for them all. */
  const attachmentRuns = new Set<Promise<unknown>>();

  /** Ingests objects a step already wrote to the bucket (a message's attachments), in the background. */
  async function ingestStored(keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        const doc = await queueDocument(deps.db, {
          key,
          filename: key.slice(key.lastIndexOf('/') + 1),
          collection: collectionOfKey(key, deps.config.collections),
        });
        const run = execute({ key, documentId: doc.id, sequencer: localSequencer() }, (outcome) => {
          for (const listener of attachmentListeners) notify(listener, outcome);
        });
        attachmentRuns.add(run);
        void run.finally(() => attachmentRuns.delete(run));
      } catch (error) {
        log.error('ingest: could not queue an attachment', { key, ...errorFields(error) });
      }
    }
  }

  /**
   * Per key, the moment the latest upload's bytes have been read by its Register step. An upload of
   * a key waits for the one before it: otherwise its write replaces the object before the earlier
   * execution has read (and versioned) it, and that content is never versioned.
   */
  const keyRead = new Map<string, Promise<void>>();
  /** Keys queued by a `start` whose executions are not handed to the runner yet (they wait). */
  const submitting = new Map<string, number>();
  const holdSubmitting = (key: string, change: 1 | -1) => {
    const n = (submitting.get(key) ?? 0) + change;
    if (n > 0) submitting.set(key, n);
    else submitting.delete(key);
  };

  /** Holds `key` until `release`; resolves when the upload before it on that key has been read. */
  function holdKey(key: string): { before?: Promise<void>; release: () => void } {
    // Two files of one key in a batch wait alike: each file's execution starts once it is written.
    const before = keyRead.get(key);
    let release!: () => void;
    const read = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = (before ?? Promise.resolve()).then(() => read);
    keyRead.set(key, held);
    void held.then(() => {
      if (keyRead.get(key) === held) keyRead.delete(key);
    });
    return { before, release };
  }

  async function start(
    files: IngestFile[],
    onOutcome?: (outcome: IngestOutcome) => void,
    onEvent?: (event: PipelineEvent) => void,
  ): Promise<{ submitted: SubmittedFile[]; outcomes: Promise<IngestOutcome>[]; indexed: Promise<void> }> {
    const releases: (() => void)[] = [];
    const counted: string[] = [];
    const running: Promise<IngestOutcome>[] = [];
    let isBulk = false;
    /** Starts a queued file's execution at once, while the next files are written. */
    const launch = ({ turn, ...input }: QueuedFile) => {
      const release = () => turn?.release();
      const watchRegister = (event: PipelineEvent) => {
        const read = event.type === 'step-finished' && event.step === 'Register' && !event.error;
        if (read || event.type === 'finished') release();
        onEvent?.(event);
      };
      const outcome = execute(input, onOutcome, watchRegister);
      holdSubmitting(input.key, -1);
      counted.splice(counted.indexOf(input.key), 1);
      void outcome.finally(release);
      running.push(outcome);
    };
    /** A bulk load's index is built once its executions, however many started, have ended. */
    const indexedAfter = () =>
      isBulk ? track(Promise.allSettled(running).then(() => bulk.end())) : Promise.resolve();
    let submission: Awaited<ReturnType<typeof submitFiles>>;
    try {
      submission = await submitFiles(deps, files, {
        answerUnchanged: true,
        turn: async (key) => {
          const { before, release } = holdKey(key);
          releases.push(release);
          if (before) await before;
          return { waited: before !== undefined, release };
        },
        onQueue: (key) => {
          holdSubmitting(key, 1);
          counted.push(key);
        },
        // Only files that may make new versions count towards a bulk load (and its index rebuild).
        planned: async (expected) => {
          isBulk = expected >= bulkMinFiles;
          if (isBulk) await bulk.begin(expected);
        },
        onQueued: launch,
      });
    } catch (error) {
      for (const release of releases) release();
      for (const key of counted) holdSubmitting(key, -1);
      void indexedAfter();
      throw error;
    }
    // What Register would answer, without an execution: no parse, no model call, no status change;
    // a file the bucket refused failed on its own.
    const outcomes: Promise<IngestOutcome>[] = submission.submitted.flatMap((s) => {
      if (s.status === 'queued') return [];
      const outcome: IngestOutcome =
        s.status === 'rejected'
          ? { key: s.key, status: 'failed', error: s.error }
          : { ...s, status: 'unchanged' };
      notify(onOutcome, outcome);
      return [Promise.resolve(outcome)];
    });
    outcomes.push(...running);
    const indexed = indexedAfter();
    const { submitted } = submission;
    return { submitted, outcomes, indexed };
  }

  return {
    async submit(files) {
      return (await start(files)).submitted;
    },
    async ingest(files, onOutcome, onEvent) {
      const attached: IngestOutcome[] = [];
      const hear = (outcome: IngestOutcome) => {
        attached.push(outcome);
        notify(onOutcome, outcome);
      };
      attachmentListeners.add(hear);
      const { outcomes, indexed } = await start(files, onOutcome, onEvent);
      const own = await Promise.all(outcomes);
      // A message's attachments are documents too: the batch is done when they are.
      try {
        while (attachmentRuns.size > 0) await Promise.allSettled([...attachmentRuns]);
      } finally {
        attachmentListeners.delete(hear);
      }
      const results = [...own, ...attached];
      // A bulk load is only done once its index is built: search right after must be fast.
      await indexed;
      return results;
    },
    async reindex(documentId) {
      const doc = await queueReindex(deps.db, deps.store, documentId);
      const done = execute({ key: doc.key, documentId, force: true });
      return { submitted: { key: doc.key, documentId, status: 'queued' }, done };
    },
    async handleObjectEvent(event) {
      const action = objectEventAction(event);
      if (action.kind === 'remove') return removeObject(deps.db, deps.store, action);
      return runner.run(action.input);
    },
    async recover() {
      // The embedded database belongs to this process alone: whatever is unfinished was interrupted.
      // A shared Postgres may have another process working on a version right now, so only versions
      // idle longer than any step may take (Lambda's 900 s cap, with margin) count as interrupted.
      const shared = deps.config.database.url || deps.config.database.dataApi;
      const staleAfterMs = shared ? deps.config.lifecycle.recoveryIdleMs : 0;
      return recoverInterrupted(
        deps,
        (input) => {
          void execute(input);
        },
        { staleAfterMs },
      );
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await runner.idle();
    },
    activity(key) {
      const now = runner.activity(key);
      return now === 'none' && submitting.has(key) ? 'waiting' : now;
    },
  };
}
