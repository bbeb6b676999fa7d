import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * One logger, tracer and metrics per function instance; their service name comes from
 * `POWERTOOLS_SERVICE_NAME`, which the house function construct sets to the function's name.
 */
export const logger = new Logger();
export const tracer = new Tracer();
export const metrics = new Metrics({ namespace: 'DropQA' });
