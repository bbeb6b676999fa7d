/**
 * Runs functions with at most `limit` of them in flight; the others wait, higher `priority` first
 * (default 0), then in call order.
 */
export type Limiter = <T>(fn: () => Promise<T>, priority?: number) => Promise<T>;

/**
 * A concurrency limiter shared by independent tasks that start at different times (unlike
 * `mapLimit`, which maps one list). Priorities let a caller run work on its critical path first,
 * e.g. the deepest sections of a summary tree, whose chain to the document is the longest.
 *
 * @example const limit = createLimiter(8); await Promise.all(sections.map((s) => limit(() => summarize(s), s.depth)));
 */
export function createLimiter(limit: number): Limiter {
  let active = 0;
  const waiting: { priority: number; resolve: () => void }[] = [];
  const max = Math.max(1, Math.floor(limit));
  return async <T>(fn: () => Promise<T>, priority = 0): Promise<T> => {
    if (active >= max) {
      await new Promise<void>((resolve) => {
        const at = waiting.findIndex((w) => w.priority < priority);
        waiting.splice(at < 0 ? waiting.length : at, 0, { priority, resolve });
      });
    }
    active += 1;
    try {
      return await fn();
    } finally {
      active -= 1;
      waiting.shift()?.resolve();
    }
  };
}
