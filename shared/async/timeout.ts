import pTimeout from 'p-timeout';

/** setTimeout fires at once for delays over 2^31 - 1 ms; a longer limit is as good as none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `promise`, or a rejection with `onTimeout()`'s error once `ms` have passed first (`p-timeout`).
 * The promise's own late failure is handled (a race's loser never becomes an unhandled rejection).
 * The one timeout of the code base: model calls, parses and the two-stage flow's budget.
 *
 * @example await timeLimit(iterator.next(), 60_000, () => new CallTimeoutError(60_000))
 */
export function timeLimit<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return pTimeout(promise, {
    milliseconds: Math.min(Math.max(0, ms), MAX_TIMER_MS),
    fallback: () => {
      throw onTimeout();
    },
  });
}

/**
 * Runs `work` under a time limit: it receives a signal that aborts with the timeout's error (and
 * with `outer`'s reason, when given), so the work can stop too; the returned promise rejects with
 * that error as soon as the time is up, even if the work is slow to notice.
 *
 * @example await withTimeout(120_000, (signal) => parser.parse({ ...input, signal }), () => parseTimeoutError(name, 120_000))
 */
export function withTimeout<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  timeoutError: () => Error,
  outer?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const signal = outer ? AbortSignal.any([controller.signal, outer]) : controller.signal;
  return timeLimit(work(signal), ms, () => {
    const error = timeoutError();
    controller.abort(error);
    return error;
  });
}
