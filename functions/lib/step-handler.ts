import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { TaskName } from '#shared/pipeline/definition.ts';
import { toStepError } from '#shared/pipeline/step-error.ts';
import type { PipelineDeps, Step } from '#shared/pipeline/types.ts';
import { lambdaDeps } from './deps.ts';
import { logger, metrics, tracer } from './powertools.ts';

/**
 * The Lambda behind one Task state: the state's input is the event, the step's result the output.
 * A thrown error reaches Step Functions with its `name` as the error (what Retry and Catch match:
 * `TransientError`, `ThrottlingError`, ...) and its message as the cause.
 *
 * @example export const handler = stepHandler('Parse', parse);
 */
export function stepHandler(task: TaskName, step: Step, deps: () => Promise<PipelineDeps> = lambdaDeps) {
  return middy(async (event: unknown) => {
    try {
      const result = await step(event, await deps());
      metrics.addMetric(`${task}Succeeded`, MetricUnit.Count, 1);
      // An offline fallback (Parse: titles or structure without the model) is logged, not only returned.
      const warnings = (result as { warnings?: unknown } | null)?.warnings;
      if (Array.isArray(warnings) && warnings.length > 0) logger.warn(`${task} fell back`, { warnings });
      return result ?? null;
    } catch (error) {
      metrics.addMetric(`${task}Failed`, MetricUnit.Count, 1);
      const failure = toStepError(error);
      // Name and message only: the cause of a failed query carries its SQL and parameters.
      logger.error(`${task} failed`, { errorName: failure.name, reason: failure.message });
      throw failure;
    }
  })
    .use(injectLambdaContext(logger))
    .use(captureLambdaHandler(tracer))
    .use(logMetrics(metrics));
}
