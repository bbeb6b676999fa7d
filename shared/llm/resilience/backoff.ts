export interface BackoffOptions {
  /** The first retry waits up to this long; each later one doubles the ceiling. */
  baseDelayMs: number;
  /** No wait is longer than this. */
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseDelayMs: 500, maxDelayMs: 20_000 };

/**
 * "Full jitter" exponential backoff: a uniform random wait in [0, min(max, base x 2^attempt)], so that
 * many clients throttled at once do not retry in lockstep.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
