import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { DATA_API_RESPONSE_BYTES } from '#shared/db/data-api-limits.ts';
import { jsonColumn } from '#shared/db/json-column.ts';
import type { NodeType } from '#shared/db/schema.ts';
import { withWrites } from '#shared/db/with-writes.ts';

/**
 * Text per page: a quarter of the Data API's 1 MiB result, leaving room for the JSON each value is
 * wrapped in and escaped as.
 */
const PAGE_BYTES = DATA_API_RESPONSE_BYTES / 4;

interface PageRow extends Record<string, unknown> {
  page_ordinal: number;
  page_left: number;
  page_before: unknown;
}

/** An upper bound of the text columns a read of nodes can select, per row. */
const ROW_BYTES = sql.raw(`(64 + coalesce(octet_length(n.title), 0) + coalesce(octet_length(n.content), 0)
  + coalesce(octet_length(n.summary), 0) + coalesce(octet_length(n.index_text), 0)
  + coalesce(octet_length(n.metadata::text), 0))`);

/**
 * Reads the nodes of one version in reading order (by ordinal), `columns` of the alias `n` narrowed
 * by `where`, in pages of about 256 KB of text: a whole document in one result would pass the Data
 * API's 1 MiB limit from ~0.7 MB of text. Each page takes rows while the text before them stays
 * under the budget (so a page always has a row); the window also counts what is left, so the last
 * page ends the reading without another call. `writes` go with the first page (`withWrites`).
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
  const { pageBytes = PAGE_BYTES, writes = [] } = options;
  const rows: T[] = [];
  let after = -1;
  for (;;) {
    const page = await queryRows<PageRow>(
      db,
      withWrites(
        after === -1 ? writes : [],
        sql`SELECT * FROM (
            SELECT ${columns}, n.ordinal AS page_ordinal, count(*) OVER () AS page_left,
              sum(${ROW_BYTES}) OVER (ORDER BY n.ordinal) - ${ROW_BYTES} AS page_before
            FROM nodes n
            WHERE n.document_id = ${ref.documentId}::uuid AND n.version = ${ref.version}::int
              AND n.ordinal > ${after}::int AND (${where})
          ) page WHERE page_before < ${pageBytes}::int ORDER BY page_ordinal`,
      ),
    );
    for (const { page_ordinal, page_left: _left, page_before: _before, ...row } of page) {
      rows.push(row as T);
      after = Number(page_ordinal);
    }
    const last = page[0];
    if (!last || Number(last.page_left) <= page.length) return rows;
  }
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
