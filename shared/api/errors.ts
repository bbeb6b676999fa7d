import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { errorFields, log } from '#shared/log/logger.ts';
import { DropQAError, errorBody, isOutOfSpace, OutOfSpaceError, RateLimitedError } from '../errors.ts';

const STATUS: Record<string, 400 | 403 | 404 | 413 | 422 | 429 | 500 | 502 | 503 | 507> = {
  validation_failed: 400,
  forbidden: 403,
  not_found: 404,
  payload_too_large: 413,
  unsupported_document: 422,
  rate_limited: 429,
  config_invalid: 500,
  provider_failed: 502,
  insufficient_storage: 507,
};

/**
 * The one place errors become HTTP responses: `{ error: { code, message, reason?, params? } }`. Known errors keep
 * their message (a full disk: 507); anything else is logged with context and answered with a generic 500.
 */
export function handleError(thrown: Error, c: Context): Response {
  // The client went away (its request signal aborted the work): nobody reads an answer, nothing to log.
  if (c.req.raw.signal.aborted) return c.body(null, 499 as never);
  // A full disk wherever it was met (the database's files too): the server's problem, not the request's.
  const error =
    !(thrown instanceof DropQAError) && isOutOfSpace(thrown)
      ? new OutOfSpaceError({ cause: thrown })
      : thrown;
  if (error instanceof DropQAError) {
    // The rest of a refused upload is not read: the connection cannot carry another request.
    if (error.code === 'payload_too_large') c.header('Connection', 'close');
    if (error instanceof RateLimitedError) c.header('Retry-After', String(error.retryAfterSeconds));
    return c.json({ error: errorBody(error) }, STATUS[error.code] ?? 500);
  }
  if (error instanceof HTTPException) {
    const code = error.status === 413 ? 'payload_too_large' : 'http_error';
    return c.json({ error: { code, message: error.message || 'Request failed' } }, error.status);
  }
  log.error('api: request failed', {
    method: c.req.method,
    path: c.req.path,
    ...errorFields(error, { stack: true }),
  });
  return c.json({ error: { code: 'internal', message: 'Internal server error' } }, 500);
}
