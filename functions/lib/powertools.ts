import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { logger } from './log.ts';

/**
 * One logger, tracer and metrics per function instance; their service name comes from
 * `POWERTOOLS_SERVICE_NAME`, which the house function construct sets to the function's name.
 */
export { logger };
export const tracer = new Tracer();
export const metrics = new Metrics({ namespace: 'DropQA' });
