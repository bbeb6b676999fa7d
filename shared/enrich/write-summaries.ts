import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { buildTsvector } from '#shared/index/tsvector.ts';

const BATCH_ROWS = 500;

/** A section or document node with its new summary. */
export interface SummaryUpdate {
  id: string;
  title: string | null;
  summary: string | null;
}

/**
 * Stores summaries and re-indexes their nodes (title weight A, summary weight C) with one
 * `UPDATE ... FROM (VALUES ...)` per 500 nodes.
 */
export async function writeSummaries(db: Db, updates: SummaryUpdate[]): Promise<void> {
  for (let start = 0; start < updates.length; start += BATCH_ROWS) {
    const values = updates.slice(start, start + BATCH_ROWS).map((u) => {
      const indexed = buildTsvector([
        { text: u.title, weight: 'A' },
        { text: u.summary, weight: 'C' },
      ]);
      const indexText = [u.title, u.summary].filter(Boolean).join('\n');
      return sql`(${u.id}::uuid, ${u.summary}::text, ${indexed.tsvector}::tsvector, ${indexed.tokenCount}::int, ${indexText}::text)`;
    });
    await db.execute(sql`
      UPDATE nodes SET summary = v.summary, search_vector = v.search_vector, token_count = v.token_count,
        index_text = v.index_text
      FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, summary, search_vector, token_count, index_text)
      WHERE nodes.id = v.id`);
  }
}
