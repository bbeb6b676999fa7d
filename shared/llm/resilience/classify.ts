/** Error names AWS services (and the Bedrock event stream) use for throttling and transient faults. */
const TRANSIENT_NAMES = new Set([
  'ThrottlingException',
  'TooManyRequestsException',
  'ServiceUnavailableException',
  'InternalServerException',
  'ModelNotReadyException',
  'ModelStreamErrorException',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  'CallTimeoutError',
  'APIConnectionError',
  'APIConnectionTimeoutError',
]);

/** Error types OpenAI-compatible servers put in a JSON error body (also inside an SSE stream). */
const TRANSIENT_TYPES = new Set([
  'rate_limit_exceeded',
  'server_error',
  'overloaded_error',
  'service_unavailable',
]);

/** Socket-level failures worth another try: the peer dropped or stalled the connection. */
const TRANSIENT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'UND_ERR_SOCKET']);

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  type?: unknown;
  status?: unknown;
  message?: unknown;
  cause?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/** The HTTP status an SDK error carries (AWS `$metadata.httpStatusCode`, OpenAI `status`). */
export function httpStatusOf(error: unknown): number | undefined {
  const e = error as ErrorShape | null;
  const status = e?.$metadata?.httpStatusCode ?? e?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Whether a failed model call may succeed if tried again: throttling (429, ThrottlingException),
 * unavailability and other 5xx, timeouts and connection resets. Validation errors and every other
 * 4xx are final: the same request would fail the same way.
 */
export function isRetryable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 3) return false;
  const e = error as ErrorShape;
  const status = httpStatusOf(error);
  if (status !== undefined) return status === 429 || status === 408 || status >= 500;
  if (typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
  if (typeof e.type === 'string' && TRANSIENT_TYPES.has(e.type)) return true;
  if (typeof e.message === 'string' && /socket hang up|ECONNRESET/i.test(e.message)) return true;
  return isRetryable(e.cause, depth + 1);
}

/** "ThrottlingException: Rate exceeded" for SDK errors, the message alone for plain ones. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const name = error.name && error.name !== 'Error' ? error.name : '';
  const status = httpStatusOf(error);
  const head = [name, status && !name.includes(String(status)) ? `(HTTP ${status})` : '']
    .filter(Boolean)
    .join(' ');
  const message = error.message || (error.cause instanceof Error ? error.cause.message : '');
  return head ? `${head}: ${message}` : message;
}

/**
 * The wait a throttled server asked for (`retry-after-ms` or `retry-after` in seconds, as OpenAI
 * and compatible servers send), in milliseconds, or undefined.
 */
export function retryAfterMs(error: unknown): number | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  if (!headers || typeof (headers as Headers).get !== 'function') return undefined;
  const ms = Number((headers as Headers).get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const seconds = Number((headers as Headers).get('retry-after'));
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  return undefined;
}
