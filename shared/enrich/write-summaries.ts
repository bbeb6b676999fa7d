import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { byteBatches, parameterBytes } from '#shared/db/data-api-limits.ts';
import { rowValues } from '#shared/db/row-values.ts';
import { buildTsvector } from '#shared/index/tsvector.ts';

/** A section or document node with its new summary. */
export interface SummaryUpdate {
  id: string;
  title: string | null;
  summary: string | null;
  /** The hash of what the summary was made from, kept in metadata so a later version can reuse it. */
  key: string;
}

/** The casts of a summary row: id, summary, search vector, token and gram counts, index text, key. */
const SUMMARY_CASTS = ['uuid', 'text', 'tsvector', 'int', 'int', 'text', 'text'];

/**
 * Stores summaries and re-indexes their nodes (title weight A, summary weight C) with one
 * `UPDATE ... FROM (VALUES ...)` per 500 nodes or 3 MiB of values (the Data API's request limit is 4).
 */
export async function writeSummaries(db: Db, updates: SummaryUpdate[]): Promise<void> {
  const rows = updates.map((u) => {
    const indexed = buildTsvector([
      { text: u.title, weight: 'A' },
      { text: u.summary, weight: 'C' },
    ]);
    const indexText = summaryIndexText(u);
    return [
      u.id,
      u.summary,
      indexed.tsvector,
      indexed.tokenCount,
      indexed.gramCount,
      indexText,
      u.key,
    ] as const;
  });
  for (const batch of byteBatches(rows, parameterBytes)) {
    await db.execute(sql`
      UPDATE nodes SET summary = v.summary, search_vector = v.search_vector, token_count = v.token_count, gram_count = v.gram_count,
        index_text = v.index_text, metadata = nodes.metadata || jsonb_build_object('summaryKey', v.key)
      FROM (VALUES ${rowValues(batch, SUMMARY_CASTS)}) AS v(id, summary, search_vector, token_count, gram_count, index_text, key)
      WHERE nodes.id = v.id`);
  }
}

/** A summarized node's index text (what is embedded): its title and summary. */
export function summaryIndexText(node: { title: string | null; summary: string | null }): string {
  return [node.title, node.summary].filter(Boolean).join('\n');
}
