export { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF, sleep } from './backoff.ts';
export { type CallContext, CallTimeoutError, type ResilienceOptions, ResilientCaller } from './caller.ts';
export { describeError, httpStatusOf, isRetryable, retryAfterMs } from './classify.ts';
