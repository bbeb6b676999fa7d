/** A bounded work queue: at most `concurrency` tasks run at once, the rest wait in order. */
export interface WorkQueue {
  /** Runs `task` when a slot is free; settles as the task does. */
  add<T>(task: () => Promise<T>): Promise<T>;
  /** Resolves once nothing is waiting or running (including tasks added while waiting). */
  idle(): Promise<void>;
  readonly size: { running: number; waiting: number };
}

/**
 * Creates a bounded queue.
 *
 * @example const queue = createWorkQueue(2); await Promise.all(files.map((f) => queue.add(() => run(f))));
 */
export function createWorkQueue(concurrency: number): WorkQueue {
  const limit = Math.max(1, Math.floor(concurrency));
  const waiting: (() => void)[] = [];
  let running = 0;
  let idleWaiters: (() => void)[] = [];

  const next = () => {
    while (running < limit && waiting.length > 0) {
      running++;
      waiting.shift()?.();
    }
    if (running === 0 && waiting.length === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  return {
    add<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.push(() => {
          task()
            .then(resolve, reject)
            .finally(() => {
              running--;
              next();
            });
        });
        next();
      });
    },
    idle() {
      if (running === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    get size() {
      return { running, waiting: waiting.length };
    },
  };
}
