/**
 * Reads an async iterable ahead into memory from the moment it is created, so a speculative answer
 * can be produced while a decision is pending: `drain()` then yields what was read and the rest as
 * it comes; `discard()` stops reading and drops it. A failure of the source surfaces from `drain()`.
 */
export class ReadAhead<T> {
  private readonly items: T[] = [];
  private finished = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;
  private stopped = false;
  private readonly iterator: AsyncIterator<T>;

  constructor(source: AsyncIterable<T>) {
    this.iterator = source[Symbol.asyncIterator]();
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        const next = await this.iterator.next();
        if (this.stopped) return;
        if (next.done) break;
        this.items.push(next.value);
        this.wake?.();
      }
    } catch (error) {
      this.failure = { error };
    }
    this.finished = true;
    this.wake?.();
  }

  /** Everything read so far, then the rest as it arrives. */
  async *drain(): AsyncGenerator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.failure) throw this.failure.error;
      if (this.finished) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Stops reading; what was read is dropped. */
  discard(): void {
    this.stopped = true;
    this.items.length = 0;
    void this.iterator.return?.()?.catch(() => undefined);
  }
}
