import PQueue from 'p-queue';

/**
 * At most `concurrency` tasks run at once; the others wait, higher `priority` first (default 0),
 * then in call order. The one concurrency limit of the code base (a model provider's calls, the
 * pipeline's executions, a watched folder's files, enrichment's model calls), on `p-queue`.
 */
export interface Limiter {
  /** Runs `task` when a slot is free; settles as the task does. */
  run<T>(task: () => Promise<T>, priority?: number): Promise<T>;
  /** Takes a slot and returns its release function (for work that outlives one promise: streams). */
  acquire(): Promise<() => void>;
  /** Resolves once nothing is waiting or running (including tasks added while waiting). */
  idle(): Promise<void>;
  readonly active: number;
  readonly pending: number;
}

/**
 * A limit below one counts as one.
 *
 * @example
 * const limit = createLimiter(4);
 * await Promise.all(sections.map((s) => limit.run(() => summarize(s), s.depth)));
 */
export function createLimiter(concurrency: number): Limiter {
  if (Number.isNaN(concurrency)) throw new RangeError('concurrency limit is not a number');
  const queue = new PQueue({ concurrency: Math.max(1, Math.floor(concurrency)) });
  return {
    run: (task, priority = 0) => queue.add(() => task(), { priority }),
    acquire() {
      return new Promise((granted) => {
        void queue.add(() => new Promise<void>((release) => granted(once(release))));
      });
    },
    idle: () => queue.onIdle(),
    get active() {
      return queue.pending;
    },
    get pending() {
      return queue.size;
    },
  };
}

function once(release: () => void): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}

/**
 * Maps `items` through `fn` with at most `limit` calls in flight; results keep the input order.
 *
 * @example const titles = await mapLimit(sections, 4, (s) => titleOf(s));
 */
export function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const limiter = createLimiter(limit);
  return Promise.all(items.map((item) => limiter.run(() => fn(item))));
}

export type Settled<T, R> = { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };

/**
 * Runs `fn` over `items` with at most `limit` calls in flight and yields each outcome as soon as it
 * settles (completion order, not input order); a rejected call yields its error instead of stopping
 * the others.
 *
 * @example for await (const o of settleEach(docs, 4, read)) if (o.ok) use(o.value); else skip(o.item, o.error);
 */
export async function* settleEach<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): AsyncGenerator<Settled<T, R>> {
  const limiter = createLimiter(limit);
  const settled: Settled<T, R>[] = [];
  let wake: (() => void) | undefined;
  for (const item of items) {
    void limiter
      .run(() => fn(item))
      .then(
        (value) => settled.push({ item, ok: true, value }),
        (error: unknown) => settled.push({ item, ok: false, error }),
      )
      .then(() => wake?.());
  }
  for (let yielded = 0; yielded < items.length; yielded++) {
    while (settled.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    yield settled.shift() as Settled<T, R>;
  }
}
