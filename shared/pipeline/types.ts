import type { Config } from '../config/index.ts';
import type { Db } from '../db/index.ts';
import type { Providers } from '../llm/types.ts';
import type { BlobStore } from '../storage/types.ts';
import type { TaskName } from './definition.ts';

/** What every step works with; tests pass PGlite, a temp folder and the offline providers. */
export interface PipelineDeps {
  db: Db;
  store: BlobStore;
  providers: Providers;
  config: Config;
  /**
   * True while a local bulk load builds the HNSW index once at its end instead of growing it row by
   * row (see bulk-index.ts); Summarize then leaves the index alone. Unset in AWS.
   */
  deferVectorIndex?: () => boolean;
  /**
   * Starts the ingestion of objects a step wrote to become documents of their own (a message's
   * attachments). Set by the local ingest service; in AWS those objects' S3 events start them.
   */
  ingestObjects?: (keys: string[]) => void;
  /**
   * What the execution's model calls cost so far (the local runner): Activate stores it in the
   * version's stats with its own update. Unset in AWS.
   */
  usage?: () => Record<string, number>;
  /**
   * How long DescribeImage and Summarize start new work per invocation (default `STEP_BUDGET_MS`):
   * tests shorten it to make the state machine loop.
   */
  stepBudgetMs?: number;
}

/** A step: JSON identifiers in, JSON identifiers out. */
export type Step<I = unknown, O = unknown> = (input: I, deps: PipelineDeps) => Promise<O>;

/** The step behind each Task state. */
export type StepHandlers = Record<TaskName, Step>;

/** How one execution ended. */
export interface PipelineOutcome {
  /** Unknown only when Register failed before it found or created a document. */
  documentId?: string;
  version?: number;
  status: 'ready' | 'unchanged' | 'failed';
  /** The readable reason, when failed. */
  error?: string;
}

/** Progress of executions, for progress bars and logs. */
export type PipelineEvent =
  | { type: 'queued'; key: string }
  | { type: 'started'; key: string }
  | { type: 'step-started'; key: string; step: TaskName; documentId?: string; version?: number }
  | {
      type: 'step-finished';
      key: string;
      step: TaskName;
      documentId?: string;
      version?: number;
      /** Set when the step threw (it may still be retried). */
      error?: string;
    }
  | { type: 'finished'; key: string; outcome: PipelineOutcome };
