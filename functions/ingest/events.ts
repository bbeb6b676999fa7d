import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { SFNClient } from '@aws-sdk/client-sfn';
import middy from '@middy/core';
import { removeObject } from '#shared/documents/remove-object.ts';
import { ConfigError } from '#shared/errors.ts';
import { lambdaDeps } from '../lib/deps.ts';
import { readLambdaEnv } from '../lib/env.ts';
import { logger, metrics, tracer } from '../lib/powertools.ts';
import { executionStarter } from '../lib/start-execution.ts';
import { routeObjectEvent } from './route-event.ts';

const sfn = tracer.captureAWSv3Client(new SFNClient({}));

/** S3 object events from EventBridge (and direct pipeline inputs): start an ingestion or remove a document. */
export const handler = middy(async (event: unknown) => {
  const { STATE_MACHINE_ARN } = readLambdaEnv();
  if (!STATE_MACHINE_ARN) throw new ConfigError('STATE_MACHINE_ARN is not set');
  const result = await routeObjectEvent(event, {
    start: executionStarter(sfn, STATE_MACHINE_ARN),
    remove: async (removed) => {
      const { db, store } = await lambdaDeps();
      return removeObject(db, store, removed);
    },
  });
  metrics.addMetric(result.action === 'ingest' ? 'IngestStarted' : 'ObjectRemoved', MetricUnit.Count, 1);
  logger.info('object event handled', { result });
  return result;
})
  .use(injectLambdaContext(logger))
  .use(captureLambdaHandler(tracer))
  .use(logMetrics(metrics));
