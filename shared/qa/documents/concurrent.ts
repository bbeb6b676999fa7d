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
): AsyncGenerator<{ item: T; ok: true; value: R } | { item: T; ok: false; error: unknown }> {
  type Outcome = { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };
  const settled: Outcome[] = [];
  let wake: (() => void) | undefined;
  let next = 0;
  let running = 0;
  const start = () => {
    while (running < limit && next < items.length) {
      const item = items[next++] as T;
      running += 1;
      fn(item).then(
        (value) => finish({ item, ok: true, value }),
        (error: unknown) => finish({ item, ok: false, error }),
      );
    }
  };
  const finish = (outcome: Outcome) => {
    running -= 1;
    settled.push(outcome);
    start();
    wake?.();
  };
  start();
  for (let yielded = 0; yielded < items.length; yielded++) {
    while (settled.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    yield settled.shift() as Outcome;
  }
}
