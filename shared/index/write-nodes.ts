import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { byteBatches, parameterBytes } from '#shared/db/data-api-limits.ts';
import { rowValues } from '#shared/db/row-values.ts';
import { withWrites } from '#shared/db/with-writes.ts';
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
  ['gram_count', 'int'],
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
  r.gramCount,
  JSON.stringify(r.metadata),
];

const COLUMN_LIST = sql.raw(COLUMNS.map(([name]) => name).join(', '));
const CASTS = COLUMNS.map(([, cast]) => cast);

/** True when `writeNodes` writes these rows in one statement (atomic without a transaction). */
export function fitsOneStatement(rows: NodeRow[]): boolean {
  return byteBatches(rows.map(valuesOf), parameterBytes).length <= 1;
}

/**
 * Inserts `nodes` rows in multi-row INSERT statements of at most 500 rows (16 parameters a row stays
 * far below Postgres' 65,535-parameter limit) and 3 MiB of values (the Data API refuses requests
 * above 4 MiB). With `replacing`, the first statement also deletes that version's existing rows (a
 * data-modifying CTE: one statement, and atomic by itself when the rows fit in one). Run it inside a
 * transaction to make a write of several statements atomic (see `fitsOneStatement`). `writes` go
 * with the first statement too (`withWrites`).
 */
export async function writeNodes(
  db: Db,
  rows: NodeRow[],
  options: { replacing?: { documentId: string; version: number }; writes?: readonly SQL[] } = {},
): Promise<void> {
  const { replacing, writes = [] } = options;
  const tuples = rows.map(valuesOf);
  const batches = byteBatches(tuples, parameterBytes);
  if ((replacing || writes.length > 0) && batches.length === 0) batches.push([]);
  for (const [n, batch] of batches.entries()) {
    const insert =
      batch.length > 0
        ? sql`INSERT INTO nodes (${COLUMN_LIST}) VALUES ${rowValues(batch, CASTS)}`
        : undefined;
    const first = n === 0 ? [...(replacing ? [deleteVersionNodes(replacing)] : []), ...writes] : [];
    if (insert) await db.execute(withWrites(first, insert));
    else for (const write of first) await db.execute(write);
  }
}

function deleteVersionNodes(ref: { documentId: string; version: number }): SQL {
  return sql`DELETE FROM nodes WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`;
}
