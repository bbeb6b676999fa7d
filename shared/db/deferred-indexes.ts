import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/** An index a bulk load drops and builds once at the end, with its text as the migrations create it. */
export interface DeferredIndex {
  name: string;
  create: string;
}

/**
 * The trigram index of keyword search, as migration 0002 creates it. Growing a trigram GIN index
 * row by row costs about twice the node insert itself.
 */
export const TRIGRAM_INDEX = {
  name: 'nodes_index_text_trgm',
  create:
    'CREATE INDEX IF NOT EXISTS "nodes_index_text_trgm" ON "nodes" USING gin ("index_text" gin_trgm_ops)',
} as const satisfies DeferredIndex;

/**
 * The GIN index of full-text search over the nodes' tsvectors, as migration 0001 creates it. Grown
 * row by row (its pending list flushed into the tree every 4 MB) it costs ~16% of the CPU of
 * the node writes; one build at the end sorts each term's postings once (200 documents of 50
 * paragraphs: 6.4 s of CPU with the index kept, 5.4 s dropped and built after; more memory for the
 * build, 256 MB, did not help).
 */
export const SEARCH_VECTOR_INDEX = {
  name: 'nodes_search_vector',
  create: 'CREATE INDEX IF NOT EXISTS "nodes_search_vector" ON "nodes" USING gin ("search_vector")',
} as const satisfies DeferredIndex;

/**
 * The indexes bulk loads build once at the end (a unit test keeps their text identical to the
 * migrations'). Meanwhile keyword and full-text search scan the nodes: slower, never wrong.
 */
export const DEFERRED_INDEXES: readonly DeferredIndex[] = [TRIGRAM_INDEX, SEARCH_VECTOR_INDEX];

/** Creates the deferred indexes a bulk load dropped (and, say, the process died before rebuilding). */
export async function ensureDeferredIndexes(db: Db): Promise<void> {
  for (const index of DEFERRED_INDEXES) {
    await db.transaction(async (tx) => {
      // A build over every row may take longer than database.statementTimeoutMs allows a statement.
      await tx.execute(sql.raw('SET LOCAL statement_timeout = 0'));
      await tx.execute(sql.raw(index.create));
    });
  }
}

/** Drops the deferred indexes for a bulk load; `ensureDeferredIndexes` builds them again. */
export async function dropDeferredIndexes(db: Db): Promise<void> {
  for (const index of DEFERRED_INDEXES) await db.execute(sql.raw(`DROP INDEX IF EXISTS "${index.name}"`));
}
