/** Runs at most `max` tasks at once; the others wait in arrival order. */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Takes a slot and returns its release function (for work that outlives one promise: streams). */
  acquire(): Promise<() => void>;
  readonly active: number;
  readonly pending: number;
}

/**
 * A counting semaphore: the global concurrency limit of one provider instance.
 *
 * @example
 * const limit = createLimiter(4);
 * await Promise.all(texts.map((t) => limit.run(() => callModel(t))));
 */
export function createLimiter(max: number): Limiter {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency limit must be >= 1 (got ${max})`);
  let active = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };

  const acquire = (): Promise<() => void> => {
    let released = false;
    const once = () => {
      if (released) return;
      released = true;
      release();
    };
    if (active < max) {
      active++;
      return Promise.resolve(once);
    }
    // The slot passes straight from the releasing task to the next waiter: `active` stays the same.
    return new Promise((resolve) => waiting.push(() => resolve(once)));
  };

  return {
    acquire,
    async run<T>(task: () => Promise<T>): Promise<T> {
      const done = await acquire();
      try {
        return await task();
      } finally {
        done();
      }
    },
    get active() {
      return active;
    },
    get pending() {
      return waiting.length;
    },
  };
}
