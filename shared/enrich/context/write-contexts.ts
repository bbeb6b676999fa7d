import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { rowValues } from '#shared/db/row-values.ts';
import { buildTsvector } from '#shared/index/tsvector.ts';

const BATCH_ROWS = 500;
/** The casts of a context row: id, context, its search vector, token and gram counts, metadata. */
const CONTEXT_CASTS = ['uuid', 'text', 'tsvector', 'int', 'int', 'jsonb'];

/**
 * Prepends each paragraph's contextual sentence to its index text (what is embedded) and adds it to
 * the tsvector with weight C; the context and its cache key go to metadata, which also keeps a
 * retried step from prepending twice.
 */
export async function writeContexts(
  db: Db,
  updates: { id: string; context: string; key: string }[],
): Promise<void> {
  for (let start = 0; start < updates.length; start += BATCH_ROWS) {
    const rows = updates.slice(start, start + BATCH_ROWS).map((u) => {
      const indexed = buildTsvector([{ text: u.context, weight: 'C' }]);
      const metadata = JSON.stringify({ context: u.context, contextKey: u.key });
      return [u.id, u.context, indexed.tsvector, indexed.tokenCount, indexed.gramCount, metadata];
    });
    await db.execute(sql`
      UPDATE nodes SET index_text = v.context || E'\\n' || coalesce(nodes.index_text, ''),
        search_vector = coalesce(nodes.search_vector, ''::tsvector) || v.vector,
        token_count = nodes.token_count + v.tokens,
        gram_count = nodes.gram_count + v.grams,
        metadata = nodes.metadata || v.metadata
      FROM (VALUES ${rowValues(rows, CONTEXT_CASTS)}) AS v(id, context, vector, tokens, grams, metadata)
      WHERE nodes.id = v.id AND NOT (nodes.metadata ? 'context')`);
  }
}
