import type { Db } from '#shared/db/client.ts';
import { type SearchDeps, type SearchKind, search } from '#shared/search/index.ts';

export interface LatencyStats {
  /** Milliseconds. */
  p50: number;
  p95: number;
  mean: number;
  max: number;
  count: number;
  /** The first query of the kind, before the timed ones (loads caches such as the BM25 index). */
  warmupMs: number;
  /** Mean number of results per query. */
  meanResults: number;
}

const KINDS: SearchKind[] = ['keyword', 'fulltext', 'semantic', 'hybrid'];

/**
 * Search latency per kind: `iterations` searches (top 10) cycling through `queries`, after one
 * untimed warm-up query per kind. `db` is the database `deps` searches (kept for the harness's
 * signature; nothing is run on it besides the searches).
 *
 * @example const stats = await benchSearch(db, deps, ['budget', '预算'], 200); stats.fulltext.p95
 */
export async function benchSearch(
  db: Db,
  deps: SearchDeps,
  queries: string[],
  iterations: number,
): Promise<Record<SearchKind, LatencyStats>> {
  if (queries.length === 0) throw new Error('benchSearch needs at least one query');
  const searchDeps = { ...deps, db };
  const result = {} as Record<SearchKind, LatencyStats>;
  for (const kind of KINDS) {
    const warmStart = performance.now();
    await search(searchDeps, { query: queries[0] ?? '', kind, limit: 10 });
    const warmupMs = performance.now() - warmStart;
    const times: number[] = [];
    let results = 0;
    for (let i = 0; i < iterations; i++) {
      const query = queries[i % queries.length] ?? '';
      const started = performance.now();
      const hits = await search(searchDeps, { query, kind, limit: 10 });
      times.push(performance.now() - started);
      results += hits.length;
    }
    result[kind] = { ...summarize(times), warmupMs, meanResults: times.length ? results / times.length : 0 };
  }
  return result;
}

function summarize(times: number[]): Omit<LatencyStats, 'warmupMs' | 'meanResults'> {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  return {
    p50: at(0.5),
    p95: at(0.95),
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
    max: sorted.at(-1) ?? 0,
    count: sorted.length,
  };
}
