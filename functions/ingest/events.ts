import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SQSClient } from '@aws-sdk/client-sqs';
import middy from '@middy/core';
import { type RemovedObject, removeObject } from '#shared/documents/remove-object.ts';
import { ConfigError } from '#shared/errors.ts';
import { lambdaDeps } from '../lib/deps.ts';
import { readLambdaEnv } from '../lib/env.ts';
import { requeuer, runningExecutions } from '../lib/pipeline-slots.ts';
import { logger, metrics, tracer } from '../lib/powertools.ts';
import { executionStarter, type StartPipeline } from '../lib/start-execution.ts';
import { handleQueuedEvents, type QueuedRecord } from './queued-events.ts';
import { routeObjectEvent } from './route-event.ts';

const sfn = tracer.captureAWSv3Client(new SFNClient({}));
const sqs = tracer.captureAWSv3Client(new SQSClient({}));

const remove = async (removed: RemovedObject) => {
  const { db, store } = await lambdaDeps();
  return removeObject(db, store, removed);
};

/** One event: start an ingestion (through `start`) or remove a document. */
async function route(event: unknown, start: StartPipeline) {
  const result = await routeObjectEvent(event, { start, remove });
  metrics.addMetric(result.action === 'ingest' ? 'IngestStarted' : 'ObjectRemoved', MetricUnit.Count, 1);
  logger.info('object event handled', { result });
  return result;
}

const isQueueBatch = (event: unknown): event is { Records: QueuedRecord[] } =>
  Array.isArray((event as { Records?: unknown } | null)?.Records);

/**
 * S3 object events from the ingest queue (EventBridge puts them there), at most `PIPELINE_CONCURRENCY`
 * ingestions running at once (see handleQueuedEvents); a direct invocation with one event or a
 * pipeline input is handled at once.
 */
export const handler = middy(async (event: unknown) => {
  const { STATE_MACHINE_ARN, INGEST_QUEUE_URL, PIPELINE_CONCURRENCY } = readLambdaEnv();
  if (!STATE_MACHINE_ARN) throw new ConfigError('STATE_MACHINE_ARN is not set');
  const start = executionStarter(sfn, STATE_MACHINE_ARN);
  if (!isQueueBatch(event)) return route(event, start);
  if (!INGEST_QUEUE_URL || !PIPELINE_CONCURRENCY)
    throw new ConfigError('INGEST_QUEUE_URL and PIPELINE_CONCURRENCY are not set');
  return handleQueuedEvents(event.Records, {
    route,
    start,
    running: runningExecutions(sfn, STATE_MACHINE_ARN),
    requeue: requeuer(sqs, INGEST_QUEUE_URL),
    limit: PIPELINE_CONCURRENCY,
  });
})
  .use(injectLambdaContext(logger))
  .use(captureLambdaHandler(tracer))
  .use(logMetrics(metrics));
