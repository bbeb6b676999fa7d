import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import type { NodeRow } from './node-row.ts';

/** Rows per INSERT: 16 parameters a row stays far below Postgres' 65,535-parameter limit. */
const BATCH_ROWS = 500;

/**
 * Inserts `nodes` rows in multi-row INSERT statements of ~500 rows, the tsvector literal cast
 * `::tsvector` and the metadata `::jsonb`. Run it inside a transaction to make the write atomic.
 */
export async function writeNodes(db: Db, rows: NodeRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const values = rows.slice(start, start + BATCH_ROWS).map(
      (r) =>
        sql`(${r.id}::uuid, ${r.documentId}::uuid, ${r.version}::int, ${r.parentId}::uuid, ${r.nodeType},
          ${r.depth}::int, ${r.title}, ${r.content}, ${r.summary}, ${r.position}::int, ${r.ordinal}::int,
          ${r.category}, ${r.indexText}, ${r.searchVector}::tsvector, ${r.tokenCount}::int,
          ${JSON.stringify(r.metadata)}::jsonb)`,
    );
    await db.execute(sql`
      INSERT INTO nodes (id, document_id, version, parent_id, node_type, depth, title, content, summary,
        position, ordinal, category, index_text, search_vector, token_count, metadata)
      VALUES ${sql.join(values, sql`, `)}`);
  }
}
