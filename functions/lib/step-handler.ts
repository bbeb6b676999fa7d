import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import { errorFields } from '#shared/log/logger.ts';
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
    // Every line of this invocation, the core's included, carries the version and the step.
    logger.appendKeys({ ...stepKeys(event), step: task });
    const started = performance.now();
    try {
      const result = await step(event, await deps());
      metrics.addMetric(`${task}Succeeded`, MetricUnit.Count, 1);
      logger.info(`${task} finished`, { durationMs: Math.round(performance.now() - started) });
      // An offline fallback (Parse: titles or structure without the model) is logged, not only returned.
      const warnings = (result as { warnings?: unknown } | null)?.warnings;
      if (Array.isArray(warnings) && warnings.length > 0) logger.warn(`${task} fell back`, { warnings });
      return result ?? null;
    } catch (error) {
      metrics.addMetric(`${task}Failed`, MetricUnit.Count, 1);
      const failure = toStepError(error);
      logger.error(`${task} failed`, {
        durationMs: Math.round(performance.now() - started),
        ...errorFields(failure),
      });
      throw failure;
    }
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(captureLambdaHandler(tracer))
    .use(logMetrics(metrics));
}

/** The identifiers a step's event carries (Register: the key; later steps: document, version and key). */
export function stepKeys(event: unknown): { documentId?: string; version?: number; key?: string } {
  const e = (event ?? {}) as Record<string, unknown>;
  const register = (e.register ?? {}) as Record<string, unknown>;
  const pick = <T>(value: unknown, type: 'string' | 'number') =>
    typeof value === type ? (value as T) : undefined;
  return {
    documentId: pick<string>(e.documentId, 'string') ?? pick<string>(register.documentId, 'string'),
    version: pick<number>(e.version, 'number') ?? pick<number>(register.version, 'number'),
    key: pick<string>(e.key, 'string'),
  };
}
