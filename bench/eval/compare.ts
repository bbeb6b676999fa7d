/**
 * The noise of a mean over queries: the standard deviation of the mean of paired differences
 * (after - before, query by query) over `rounds` bootstrap resamples of the queries, with a fixed
 * seed so a run prints the same noise twice. A change smaller than about twice this is not told
 * apart from which queries a set happens to hold.
 *
 * @example pairedNoise([0.5, 1, 0], [0.6, 1, 0]) // ~0.03
 */
export function pairedNoise(before: readonly number[], after: readonly number[], rounds = 1000): number {
  const n = Math.min(before.length, after.length);
  if (n === 0) return 0;
  const diffs = Array.from({ length: n }, (_, i) => (after[i] ?? 0) - (before[i] ?? 0));
  let seed = 0x2545f491;
  const random = () => {
    // xorshift32: deterministic and good enough for resampling indices
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x1_0000_0000;
  };
  const means: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += diffs[Math.floor(random() * n)] ?? 0;
    means.push(sum / n);
  }
  const mean = means.reduce((a, b) => a + b, 0) / rounds;
  return Math.sqrt(means.reduce((a, b) => a + (b - mean) ** 2, 0) / rounds);
}

/** The standard deviation of a set's mean over bootstrap resamples of its queries (one run, no pair). */
export function meanNoise(values: readonly number[], rounds = 1000): number {
  return pairedNoise(
    values.map(() => 0),
    values,
    rounds,
  );
}

/** One row of a before/after comparison. */
export interface Comparison {
  set: string;
  kind: string;
  before: number;
  after: number;
  /** Paired bootstrap standard deviation of the difference (`pairedNoise`). */
  noise: number;
  /** `fell` when after < before by more than twice the noise, `rose` when above by as much. */
  verdict: 'fell' | 'rose' | 'same';
}

/** Per-query scores of one measurement, by query id. */
export type PerQuery = ReadonlyMap<string, number>;

/**
 * Compares two measurements of one set and kind on the queries both measured (by id).
 *
 * @example compare('domainrag-dev', 'fulltext', before, after).verdict // 'rose'
 */
export function compare(set: string, kind: string, before: PerQuery, after: PerQuery): Comparison {
  const ids = [...after.keys()].filter((id) => before.has(id));
  const b = ids.map((id) => before.get(id) ?? 0);
  const a = ids.map((id) => after.get(id) ?? 0);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const noise = pairedNoise(b, a);
  const delta = mean(a) - mean(b);
  const verdict = delta < -2 * noise ? 'fell' : delta > 2 * noise ? 'rose' : 'same';
  return { set, kind, before: mean(b), after: mean(a), noise, verdict };
}
