import type { RemovalOutcome, RemovedObject } from '#shared/documents/remove-object.ts';
import { type PipelineInput, pipelineInputSchema } from '#shared/pipeline/contract.ts';
import { objectEventAction } from '#shared/pipeline/object-events.ts';
import { withDecodedKey } from '../lib/s3-event-key.ts';
import type { StartPipeline } from '../lib/start-execution.ts';

export interface RouteDeps {
  start: StartPipeline;
  remove(removed: RemovedObject): Promise<RemovalOutcome>;
}

export type RouteResult =
  | { action: 'ingest'; input: PipelineInput; executionArn?: string }
  | ({ action: 'remove'; key: string } & RemovalOutcome);

/**
 * What the ingest function does with an event: an S3 "Object Created" event (EventBridge) starts an
 * ingestion with its key (URL-decoded, as S3 encodes it) and sequencer, "Object Deleted" removes the key's document, and a bare
 * pipeline input (`{ key, documentId?, force? }`, the StartExecution contract) starts it as is.
 *
 * @example await routeObjectEvent({ key: 'uploads/a.md' }, deps) // { action: 'ingest', ... }
 */
export async function routeObjectEvent(event: unknown, deps: RouteDeps): Promise<RouteResult> {
  const isS3Event = typeof event === 'object' && event !== null && 'detail-type' in event;
  if (!isS3Event) {
    const input = pipelineInputSchema.parse(event);
    return { action: 'ingest', input, ...(await deps.start(input)) };
  }
  const action = objectEventAction(withDecodedKey(event));
  if (action.kind === 'ingest')
    return { action: 'ingest', input: action.input, ...(await deps.start(action.input)) };
  const removed = await deps.remove({ key: action.key, sequencer: action.sequencer });
  return { action: 'remove', key: action.key, ...removed };
}
