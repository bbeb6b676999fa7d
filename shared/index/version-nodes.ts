import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { jsonColumn } from '#shared/db/json-column.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import type { NodeType } from '#shared/db/schema.ts';

/** An upper bound of the text columns a read of nodes can select, per row. */
const ROW_BYTES = sql.raw(`(64 + coalesce(octet_length(n.title), 0) + coalesce(octet_length(n.content), 0)
  + coalesce(octet_length(n.summary), 0) + coalesce(octet_length(n.index_text), 0)
  + coalesce(octet_length(n.metadata::text), 0))`);

/**
 * Reads the nodes of one version in reading order (by ordinal), `columns` of the alias `n` narrowed
 * by `where`, in pages (`readPaged`): a whole document in one result would pass the Data API's 1 MiB
 * limit from ~0.7 MB of text. `writes` go with the first page (`withWrites`).
 *
 * @example const rows = await readVersionNodes<{ id: string }>(db, ref, sql`n.id`, sql`n.node_type = 'paragraph'`);
 */
export async function readVersionNodes<T extends object>(
  db: Db,
  ref: { documentId: string; version: number },
  columns: SQL,
  where: SQL = sql`TRUE`,
  options: { pageBytes?: number; writes?: readonly SQL[] } = {},
): Promise<T[]> {
  return readPaged<T>(
    db,
    {
      columns,
      from: sql`nodes n`,
      where: sql`n.document_id = ${ref.documentId}::uuid AND n.version = ${ref.version}::int AND (${where})`,
      key: sql`n.ordinal`,
      keyType: 'int',
      rowBytes: ROW_BYTES,
    },
    options,
  );
}

/** A node as a version's tree is rebuilt from it (columns as selected, `metadata` parsed). */
export interface TreeNodeRow {
  id: string;
  parent_id: string | null;
  node_type: NodeType;
  depth: number;
  title: string | null;
  content: string | null;
  /** A section's or the document's summary (null until Summarize wrote it). */
  summary: string | null;
  /** What is embedded (see `embedVersion`). */
  index_text: string | null;
  category: string | null;
  metadata: Record<string, unknown> | null;
}

/**
 * The nodes of one version in reading order with the columns of its tree (`readVersionNodes`, so
 * in pages; `writes` go with the first).
 *
 * @example const rows = await readVersionTree(db, { documentId, version: 2 });
 */
export async function readVersionTree(
  db: Db,
  ref: { documentId: string; version: number },
  writes: readonly SQL[] = [],
): Promise<TreeNodeRow[]> {
  const rows = await readVersionNodes<TreeNodeRow & { metadata: TreeNodeRow['metadata'] | string }>(
    db,
    ref,
    sql`n.id, n.parent_id, n.node_type, n.depth, n.title, n.content, n.summary, n.index_text, n.category, n.metadata`,
    undefined,
    { writes },
  );
  return rows.map((row) => ({ ...row, metadata: jsonColumn(row.metadata, null) }));
}
