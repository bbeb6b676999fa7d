import { sql } from 'drizzle-orm';
import type { Config } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import type { PipelineEvent } from '#shared/pipeline/types.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { type SearchKind, search, warmSearchIndex } from '#shared/search/index.ts';
import { type BeirSet, beirMarkdown } from './beir.ts';
import { meanMetrics, type QueryMetrics, quantile, queryMetrics } from './metrics.ts';

/** The search kinds the harness can measure. */
export const EVAL_KINDS = ['fulltext', 'semantic', 'hybrid'] as const satisfies readonly SearchKind[];
export type EvalKind = (typeof EVAL_KINDS)[number];

/** Leaves asked of each search: enough distinct documents for Recall@100 when a document has several. */
const NODE_LIMIT = 300;

export interface EvalOptions {
  /**
   * Leaves asked of each search (default 300). Fewer is faster (every hit is loaded as `GET
   * /api/search` loads it: 300 cost about twice the time of 100 per query). Full-text and hybrid
   * keep their first ten documents, so nDCG@10, while a document holds few leaves (hybrid reads
   * both lists 300 deep either way); semantic's HNSW search explores less (ef_search follows the
   * limit); Recall@100 counts only the documents of those leaves.
   */
  leaves?: number;
}

/**
 * The row of the QA flows' retrieval when a reranker is configured: hybrid, its first
 * `search.rerank.topN` reranked by the cross-encoder (`search` with `rerank`).
 */
export const RERANKED = 'hybrid+rerank';

export interface KindResult extends QueryMetrics {
  kind: EvalKind | typeof RERANKED;
  queries: number;
  /** Milliseconds per query through `search` (ranking and loading the hits). */
  p50Ms: number;
  p95Ms: number;
  /** nDCG@10 of each query, in the order of `queryIds`: what a comparison resamples. */
  perQuery: number[];
}

export interface IngestResult {
  documents: number;
  /** Documents ingested by this run (the others were already in the data folder, unchanged). */
  ingested: number;
  failed: number;
  seconds: number;
  /** Over the documents ingested by this run; undefined when none was. */
  docsPerSecond?: number;
  /** Seconds from the start until the first pipeline started (storing and registering the files). */
  submitSeconds: number;
  /** Per pipeline step: how many ran and their summed seconds (steps of two documents overlap). */
  steps: Record<string, { count: number; seconds: number }>;
}

/** The models a measurement was made with: what the numbers are of. */
export interface EvalProviders {
  /** `<kind> <model>` of the embedder (offline: the hashing embedder). */
  embedder: string;
  /** `<kind> <model>` of the reranker, or `none`. */
  reranker: string;
}

export interface EvalResult {
  set: string;
  providers: EvalProviders;
  documents: number;
  queries: number;
  /** The measured queries' ids, in order. */
  queryIds: string[];
  ingest: IngestResult;
  kinds: KindResult[];
}

/** Called with (done, total, phase) as documents are ingested and queries answered. */
export type EvalProgress = (done: number, total: number, phase: string) => void;

/** The ingested set, open for more measurements before the runtime closes (conversation mode). */
export interface IngestedSet {
  rt: Runtime;
  /** The corpus id of a document key, undefined for a document of another set. */
  corpusId(key: string): string | undefined;
}

/** Bucket key of a corpus entry: the set's name, then its id (made safe for a key). */
export function keyOf(set: string, id: string): string {
  const safe = (s: string) => s.replace(/[^\p{L}\p{N}._-]/gu, '_');
  return `eval/${safe(set)}/${safe(id)}.md`;
}

/**
 * Measures retrieval on a BEIR set through the product itself: every corpus entry is ingested as a
 * Markdown document by the real pipeline (into `config.dataDir`; entries already there unchanged are
 * skipped by the pipeline), then every query goes through `search` (what `GET /api/search` runs)
 * for each kind. A document ranks where its best leaf ranks. `whileOpen` runs last, on the same
 * ingested data.
 *
 * @example const result = await runEval(set, loadConfig({ overrides: { dataDir } }), ['fulltext']);
 */
export async function runEval(
  set: BeirSet,
  config: Config,
  kinds: readonly EvalKind[],
  progress: EvalProgress = () => {},
  whileOpen?: (ingested: IngestedSet) => Promise<void>,
  options: EvalOptions = {},
): Promise<EvalResult> {
  const leaves = options.leaves ?? NODE_LIMIT;
  const rt = await openRuntime(config);
  try {
    // A kept data folder an older analysis indexed is measured once re-analysed, not midway.
    await rt.reanalysis?.done;
    const idByKey = new Map(set.documents.map((doc) => [keyOf(set.name, doc.id), doc.id]));
    const files = set.documents.map((doc) => ({
      key: keyOf(set.name, doc.id),
      bytes: new TextEncoder().encode(beirMarkdown(doc)),
    }));
    let done = 0;
    let ingested = 0;
    let failed = 0;
    const started = performance.now();
    let firstStart: number | undefined;
    const running = new Map<string, number>();
    const steps: IngestResult['steps'] = {};
    const onEvent = (event: PipelineEvent) => {
      const now = performance.now();
      if (event.type === 'started') firstStart ??= now;
      if (event.type === 'step-started') running.set(`${event.key}\n${event.step}`, now);
      if (event.type !== 'step-finished') return;
      const began = running.get(`${event.key}\n${event.step}`) ?? now;
      const step = steps[event.step] ?? { count: 0, seconds: 0 };
      step.count += 1;
      step.seconds += (now - began) / 1000;
      steps[event.step] = step;
    };
    progress(0, files.length, 'ingest');
    const outcomes = await rt.ingest.ingest(
      files,
      (outcome) => {
        done += 1;
        if (outcome.status === 'failed') failed += 1;
        else if (outcome.status !== 'unchanged') ingested += 1;
        progress(done, files.length, 'ingest');
      },
      onEvent,
    );
    const seconds = (performance.now() - started) / 1000;
    const firstFailure = outcomes.find((o) => o.status === 'failed');
    if (firstFailure)
      process.stderr.write(`${failed} documents failed, e.g. ${firstFailure.key}: ${firstFailure.error}\n`);
    const [ready] = await queryRows<{ n: number }>(
      rt.db,
      sql`SELECT count(*)::int AS n FROM documents WHERE deleted_at IS NULL AND current_version IS NOT NULL
          AND key LIKE ${`${keyOf(set.name, '').slice(0, -3)}%`}`,
    );
    const ingest: IngestResult = {
      documents: Number(ready?.n ?? 0),
      ingested,
      failed,
      seconds,
      docsPerSecond: ingested > 0 ? ingested / seconds : undefined,
      submitSeconds: ((firstStart ?? performance.now()) - started) / 1000,
      steps,
    };

    // Measured as a server ranks once its in-memory index has loaded (a fresh ingest's first searches
    // would be ranked in SQL while it loads, which weighs title coverage in only on small scopes).
    if (config.search.bm25.memoryIndex) await warmSearchIndex(rt.db);
    const results: KindResult[] = [];
    // A configured reranker is measured as the QA flows retrieve with it, beside the kinds without it.
    const rows: KindResult['kind'][] =
      rt.qa.reranker && kinds.includes('hybrid') ? [...kinds, RERANKED] : [...kinds];
    for (const row of rows) {
      const kind: EvalKind = row === RERANKED ? 'hybrid' : row;
      const rerank = row === RERANKED;
      const metrics: QueryMetrics[] = [];
      const times: number[] = [];
      for (const [i, query] of set.queries.entries()) {
        const began = performance.now();
        // An empty query (a set may hold one) finds nothing rather than failing the run.
        const hits = query.text.trim()
          ? await search(rt.qa, { query: query.text, kind, limit: leaves, rerank })
          : [];
        times.push(performance.now() - began);
        const ranked = hits.map((hit) => idByKey.get(hit.documentKey) ?? `?${hit.documentKey}`);
        metrics.push(queryMetrics(ranked, set.qrels.get(query.id) ?? new Map()));
        progress(i + 1, set.queries.length, row);
      }
      results.push({
        kind: row,
        queries: metrics.length,
        ...meanMetrics(metrics),
        p50Ms: quantile(times, 0.5),
        p95Ms: quantile(times, 0.95),
        perQuery: metrics.map((m) => Number(m.ndcg10.toFixed(4))),
      });
    }
    await whileOpen?.({ rt, corpusId: (key) => idByKey.get(key) });
    return {
      set: set.name,
      providers: {
        embedder: `${config.providers.embedder.kind} ${rt.qa.embedder.model}`,
        reranker: rt.qa.reranker ? `${config.search.rerank.kind} ${rt.qa.reranker.model}` : 'none',
      },
      documents: set.documents.length,
      queries: set.queries.length,
      queryIds: set.queries.map((q) => q.id),
      ingest,
      kinds: results,
    };
  } finally {
    await rt.close();
  }
}
