import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { SFNClient } from '@aws-sdk/client-sfn';
import middy from '@middy/core';
import { recordEndedExecution } from '#shared/pipeline/execution-ended.ts';
import { lambdaDeps } from '../lib/deps.ts';
import { registrationReader } from '../lib/execution-history.ts';
import { logger, metrics, tracer } from '../lib/powertools.ts';

const registration = registrationReader(tracer.captureAWSv3Client(new SFNClient({})));

/**
 * EventBridge: an ingestion execution FAILED, TIMED_OUT or ABORTED. Marks its version failed with
 * the reason when the state machine could not (a timeout, a stop, an uncaught error).
 */
export const handler = middy(async (event: unknown) => {
  const result = await recordEndedExecution(event, await lambdaDeps(), registration);
  if (result.recorded) metrics.addMetric('ExecutionFailureRecorded', MetricUnit.Count, 1);
  logger.info('execution end handled', { ...result });
  return result;
})
  .use(injectLambdaContext(logger))
  .use(captureLambdaHandler(tracer))
  .use(logMetrics(metrics));
