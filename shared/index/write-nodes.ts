import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { byteBatches, parameterBytes } from '#shared/db/data-api-limits.ts';
import type { NodeRow } from './node-row.ts';

/** The columns written, each with its value's cast (none: text). */
const COLUMNS = [
  ['id', 'uuid'],
  ['document_id', 'uuid'],
  ['version', 'int'],
  ['parent_id', 'uuid'],
  ['node_type', ''],
  ['depth', 'int'],
  ['title', ''],
  ['content', ''],
  ['summary', ''],
  ['position', 'int'],
  ['ordinal', 'int'],
  ['category', ''],
  ['index_text', ''],
  ['search_vector', 'tsvector'],
  ['token_count', 'int'],
  ['metadata', 'jsonb'],
] as const;

/** A row's values in the order of `COLUMNS`. */
const valuesOf = (r: NodeRow): unknown[] => [
  r.id,
  r.documentId,
  r.version,
  r.parentId,
  r.nodeType,
  r.depth,
  r.title,
  r.content,
  r.summary,
  r.position,
  r.ordinal,
  r.category,
  r.indexText,
  r.searchVector,
  r.tokenCount,
  JSON.stringify(r.metadata),
];

const COLUMN_LIST = sql.raw(COLUMNS.map(([name]) => name).join(', '));

/**
 * Inserts `nodes` rows in multi-row INSERT statements of at most 500 rows (16 parameters a row stays
 * far below Postgres' 65,535-parameter limit) and 3 MiB of values (the Data API refuses requests
 * above 4 MiB). Run it inside a transaction to make the write atomic.
 */
export async function writeNodes(db: Db, rows: NodeRow[]): Promise<void> {
  const tuples = rows.map(valuesOf);
  for (const batch of byteBatches(tuples, parameterBytes)) {
    const values = batch.map(
      (tuple) =>
        sql`(${sql.join(
          tuple.map((value, i) => {
            const cast = COLUMNS[i]?.[1];
            return cast ? sql`${value}::${sql.raw(cast)}` : sql`${value}`;
          }),
          sql`, `,
        )})`,
    );
    await db.execute(sql`INSERT INTO nodes (${COLUMN_LIST}) VALUES ${sql.join(values, sql`, `)}`);
  }
}
