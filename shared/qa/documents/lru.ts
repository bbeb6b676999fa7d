/**
 * A least-recently-used cache bounded by entry count and by total size (each entry's `size`), so
 * documents and their images stay in memory between questions without growing without end.
 *
 * @example const cache = new LruCache<Uint8Array>({ maxEntries: 1000, maxBytes: 64 * 2 ** 20 });
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private bytes = 0;

  constructor(private readonly limits: { maxEntries: number; maxBytes: number }) {}

  /** The value under `key`, now the most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores a value; entries larger than the whole budget are not kept. */
  set(key: string, value: V, size: number): void {
    this.delete(key);
    if (size > this.limits.maxBytes) return;
    this.entries.set(key, { value, size });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  get size(): number {
    return this.entries.size;
  }
}
