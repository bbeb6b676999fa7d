import type { StartPipeline } from '../lib/start-execution.ts';

/** A message of the ingest queue: its id and the EventBridge event it carries. */
export interface QueuedRecord {
  messageId: string;
  body: string;
}

/** SQS's partial batch answer: the messages to receive again (the others are deleted). */
export interface BatchResult {
  batchItemFailures: { itemIdentifier: string }[];
}

export interface QueuedEventDeps {
  /** Handles one event (routeObjectEvent), starting an ingestion through `start` when it is one. */
  route(event: unknown, start: StartPipeline): Promise<unknown>;
  /** Starts an execution (executionStarter). */
  start: StartPipeline;
  /** How many ingestion executions run now, counted up to `limit`. */
  running(limit: number): Promise<number>;
  /** Sends a message's body to the queue again, to be received after `delaySeconds`. */
  requeue(body: string, delaySeconds: number): Promise<void>;
  /** The most ingestion executions that may run at once (the `pipelineConcurrency` setting). */
  limit: number;
}

/** How long an ingestion waits in the queue before it asks for a free slot again. */
export const REQUEUE_DELAY_SECONDS = 120;

/** Thrown by the bounded start when every slot is taken; the message goes back to the queue. */
class PipelineFull extends Error {
  override name = 'PipelineFull';
}

/**
 * The ingest queue's batch (S3 object events through EventBridge): each event is routed as a
 * direct invocation would be, but an ingestion starts only while fewer than `limit` executions run
 * (counted once per batch); past that its message is sent back with a delay, so a burst of uploads
 * waits in the queue instead of calling Bedrock all at once and failing on its throttling. Removals
 * are never held back. A message whose event fails is reported for SQS to deliver again (and, after
 * the queue's receive limit, to the dead-letter queue).
 *
 * @example return handleQueuedEvents(event.Records, deps) // { batchItemFailures: [...] }
 */
export async function handleQueuedEvents(
  records: QueuedRecord[],
  deps: QueuedEventDeps,
): Promise<BatchResult> {
  let free: number | undefined;
  const bounded: StartPipeline = async (input) => {
    free ??= deps.limit - (await deps.running(deps.limit));
    if (free <= 0) throw new PipelineFull('every ingestion slot is taken');
    free -= 1;
    return deps.start(input);
  };
  const batchItemFailures: BatchResult['batchItemFailures'] = [];
  for (const record of records) {
    try {
      try {
        await deps.route(JSON.parse(record.body), bounded);
      } catch (error) {
        if (!(error instanceof PipelineFull)) throw error;
        await deps.requeue(record.body, REQUEUE_DELAY_SECONDS);
      }
    } catch {
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
