import { createLimiter, type Limiter } from '#shared/async/limiter.ts';
import { timeLimit, withTimeout } from '#shared/async/timeout.ts';
import { ProviderError } from '#shared/errors.ts';
import type { UsageKey } from '../usage.ts';
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF, sleep } from './backoff.ts';
import { describeError, isRetryable, retryAfterMs } from './classify.ts';

export interface ResilienceOptions {
  /** `bedrock`, `openai`: named in every error. */
  provider: string;
  /** Per attempt; for streams, the longest wait for the next event. */
  timeoutMs: number;
  /** Further attempts after the first, on transient failures only. */
  maxRetries: number;
  /** Calls in flight at once through this caller (the provider instance's global limit). */
  maxConcurrency: number;
  backoff?: BackoffOptions;
}

/** What a call is for: named in errors. */
export interface CallContext {
  model: string;
  role: UsageKey;
}

/** An attempt that took longer than the configured timeout. */
export class CallTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'CallTimeoutError';
  }
}

/**
 * Every model call of one provider instance goes through one caller: a global concurrency limit,
 * a timeout per attempt, retries with full-jitter exponential backoff on transient failures, and
 * a `ProviderError` naming the provider, model and role when it gives up.
 *
 * @example
 * const caller = new ResilientCaller({ provider: 'bedrock', timeoutMs: 60_000, maxRetries: 3, maxConcurrency: 4 });
 * const out = await caller.call({ model, role: 'summarize' }, (signal) => client.send(cmd, { abortSignal: signal }));
 */
export class ResilientCaller {
  readonly limiter: Limiter;
  private readonly backoff: BackoffOptions;

  constructor(private readonly options: ResilienceOptions) {
    this.limiter = createLimiter(options.maxConcurrency);
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /** Runs `attempt` (given an abort signal for its timeout) under the limit, retrying transient failures. */
  async call<T>(context: CallContext, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const { timeoutMs } = this.options;
    return this.limiter.run(async () => {
      for (let retries = 0; ; retries++) {
        try {
          return await withTimeout(timeoutMs, attempt, () => new CallTimeoutError(timeoutMs));
        } catch (error) {
          if (!(await this.shouldRetry(error, retries))) throw this.failure(context, error, retries);
        }
      }
    });
  }

  /**
   * Streams the events `open` yields, holding one slot for the whole stream. A failure before the
   * first event is retried like a call; once events have been passed on, it is final (they cannot
   * be taken back). The timeout applies to each wait for the next event.
   */
  async *stream<T>(context: CallContext, open: (signal: AbortSignal) => AsyncIterable<T>): AsyncGenerator<T> {
    const { timeoutMs } = this.options;
    const release = await this.limiter.acquire();
    try {
      for (let retries = 0; ; retries++) {
        let started = false;
        const controller = new AbortController();
        try {
          const iterator = open(controller.signal)[Symbol.asyncIterator]();
          try {
            for (;;) {
              const next = await timeLimit(iterator.next(), timeoutMs, () => {
                const error = new CallTimeoutError(timeoutMs);
                controller.abort(error);
                return error;
              });
              if (next.done) return;
              started = true;
              yield next.value;
            }
          } finally {
            // Not awaited: after a timeout the generator may still be parked in the abandoned next().
            iterator.return?.()?.catch(() => undefined);
          }
        } catch (error) {
          if (started || !(await this.shouldRetry(error, retries)))
            throw this.failure(context, error, retries);
        }
      }
    } finally {
      release();
    }
  }

  /** Wraps an error of this provider the way `call` does (for failures outside a call, e.g. bad output). */
  failure(context: CallContext, error: unknown, retries: number): ProviderError {
    if (error instanceof ProviderError) return error;
    const after = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
    return new ProviderError(
      `${this.options.provider} model ${context.model} (role ${context.role}) failed${after}: ${describeError(error)}`,
      { cause: error },
    );
  }

  private async shouldRetry(error: unknown, retries: number): Promise<boolean> {
    if (retries >= this.options.maxRetries || !isRetryable(error)) return false;
    // A server's own Retry-After wins over the drawn wait, within the backoff's ceiling.
    const asked = retryAfterMs(error);
    const wait = backoffDelay(retries, this.backoff);
    await sleep(asked === undefined ? wait : Math.min(Math.max(asked, wait), this.backoff.maxDelayMs));
    return true;
  }
}
