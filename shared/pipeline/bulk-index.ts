import { and, count, isNotNull, isNull, sql } from 'drizzle-orm';
import { errorFields, log } from '#shared/log/logger.ts';
import { dropDeferredIndexes, ensureDeferredIndexes } from '../db/deferred-indexes.ts';
import { schema } from '../db/index.ts';
import { ensureVectorIndex, vectorIndexName } from '../index/vector-index.ts';
import type { PipelineDeps } from './types.ts';

const { documents } = schema;

/** Batches at least this large are loaded as a bulk load. */
export const BULK_MIN_FILES = 20;

export interface BulkIndexWindow {
  /** Whether Summarize should leave the HNSW index alone now. */
  deferred(): boolean;
  /** Opens a bulk load of `files` documents (nested and concurrent loads share one window). */
  begin(files: number): Promise<void>;
  /** Closes one bulk load; the last one to close builds the index. Never throws. */
  end(): Promise<void>;
}

/**
 * Defers the HNSW index (and the GIN indexes of keyword and full-text search, `DEFERRED_INDEXES`)
 * during local bulk loads. Growing an HNSW index row by row costs more per
 * vector than building it once over all rows (measured on PGlite, 256 dimensions, m 8 /
 * ef_construction 32: ~1.2 ms a vector inserted into a small index and rising, against ~0.8 ms a
 * vector for one build over 50,000), so a load at least as large as the existing corpus drops the
 * index and builds it once at the end; a smaller load keeps it and only skips the per-document
 * check. Semantic search meanwhile scans exactly: slower, never wrong.
 *
 * @example
 * const bulk = createBulkIndexWindow(deps);
 * await bulk.begin(files.length); try { await ingestAll(); } finally { await bulk.end(); }
 */
export function createBulkIndexWindow(deps: PipelineDeps): BulkIndexWindow {
  let open = 0;
  return {
    deferred: () => open > 0,
    async begin(files) {
      open++;
      if (open > 1) return;
      try {
        const [row] = await deps.db
          .select({ n: count() })
          .from(documents)
          .where(and(isNull(documents.deletedAt), isNotNull(documents.currentVersion)));
        if (Number(row?.n ?? 0) <= files) {
          await deps.db.execute(sql.raw(`DROP INDEX IF EXISTS ${vectorIndexName(deps.providers.embedder)}`));
          await dropDeferredIndexes(deps.db);
        }
      } catch (error) {
        log.error('ingest: could not prepare the bulk load', errorFields(error));
      }
    },
    async end() {
      open--;
      if (open > 0) return;
      try {
        await ensureDeferredIndexes(deps.db);
        await ensureVectorIndex(deps.db, deps.providers.embedder, deps.config.search.hnsw, { bulk: true });
        // PGlite has no autovacuum: without fresh statistics the planner takes the tables for empty
        // and joins row by row (keyword search over 50,000 paragraphs: 830 ms before, 400 ms after).
        await deps.db.execute(sql`ANALYZE`);
      } catch (error) {
        log.error('ingest: could not build the search indexes', errorFields(error));
      }
    },
  };
}
