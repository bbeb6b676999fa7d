/** Runs functions with at most `limit` of them in flight; the others wait in call order. */
export type Limiter = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * A concurrency limiter shared by independent tasks that start at different times (unlike
 * `mapLimit`, which maps one list).
 *
 * @example const limit = createLimiter(8); await Promise.all(sections.map((s) => limit(() => summarize(s))));
 */
export function createLimiter(limit: number): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  const max = Math.max(1, Math.floor(limit));
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await fn();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}
