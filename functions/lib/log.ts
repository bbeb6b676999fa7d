import { Logger } from '@aws-lambda-powertools/logger';
import { setLogSink } from '#shared/log/logger.ts';

/**
 * The function's Powertools Logger (service name from `POWERTOOLS_SERVICE_NAME`, level from
 * `POWERTOOLS_LOG_LEVEL`), and the sink of the core's `log`: every line the shared code writes is a
 * Powertools JSON line with the invocation's context and appended keys.
 */
export const logger = new Logger();

setLogSink((level, message, fields) => logger[level](message, fields));
