import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * The trigram index of keyword search, as migration 0002 creates it. Growing a trigram GIN index
 * row by row costs about twice the node insert itself, so bulk loads drop it and build it once at the
 * end (a unit test keeps this text identical to the migration's).
 */
export const TRIGRAM_INDEX = {
  name: 'nodes_index_text_trgm',
  create:
    'CREATE INDEX IF NOT EXISTS "nodes_index_text_trgm" ON "nodes" USING gin ("index_text" gin_trgm_ops)',
} as const;

/** Creates the trigram index if a bulk load dropped it (and, say, the process died before rebuilding). */
export async function ensureTrigramIndex(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    // A build over every row may take longer than database.statementTimeoutMs allows a statement.
    await tx.execute(sql.raw('SET LOCAL statement_timeout = 0'));
    await tx.execute(sql.raw(TRIGRAM_INDEX.create));
  });
}

export async function dropTrigramIndex(db: Db): Promise<void> {
  await db.execute(sql.raw(`DROP INDEX IF EXISTS "${TRIGRAM_INDEX.name}"`));
}
