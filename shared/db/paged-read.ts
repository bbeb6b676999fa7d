import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from './client.ts';
import { DATA_API_RESPONSE_BYTES } from './data-api-limits.ts';
import { withWrites } from './with-writes.ts';

/**
 * Text per page: a quarter of the Data API's 1 MiB result, leaving room for the JSON each value is
 * wrapped in and escaped as.
 */
export const PAGE_BYTES = DATA_API_RESPONSE_BYTES / 4;

/** A read whose rows grow with the corpus or the document (`readPaged`). */
export interface PagedQuery {
  /** The columns (no trailing comma). */
  columns: SQL;
  /** What follows FROM: a table with its alias, joins, or a parenthesized subquery with its alias. */
  from: SQL;
  where?: SQL;
  /** A unique key of the rows, the order they come in and the place a page resumes after. */
  key: SQL;
  /** The key's SQL type, for the resume parameter. */
  keyType: 'int' | 'uuid' | 'text';
  /**
   * An upper bound of the bytes a row's selected text takes (`octet_length` of its text columns plus
   * a few dozen for the rest).
   */
  rowBytes: SQL;
}

interface PageRow extends Record<string, unknown> {
  page_key: unknown;
  page_left: number;
  page_before: unknown;
  page_bytes: unknown;
  page_row: unknown;
}

/**
 * Rows a page looks at: as many as fit the budget at 64 bytes a row. Each page evaluates at most
 * this many rows after the last key (an index on the key finds them) instead of every row left: the
 * window over all that was left made a read quadratic in its pages (every live document's name at
 * 10,000 documents: 5 pages, 1.0 s; at 50,000: 25 pages, ~12 s).
 */
export const PAGE_ROWS = Math.floor(PAGE_BYTES / 64);

/**
 * Reads every row of `query` in key order, in pages of about `pageBytes` of text (default a quarter
 * of the Data API's 1 MiB result) and at most `PAGE_ROWS` rows: any read whose size grows with the
 * corpus (topics, documents) or with a document (its nodes, images, summaries) goes through here,
 * never as one result. Each page takes the next rows after the last key while the text before them
 * stays under the budget (so a page always has a row); one row more than a page may hold tells
 * whether rows are left, so the last page ends the reading without another call. `writes` go with
 * the first page (`withWrites`).
 *
 * @example
 * const topics = await readPaged<{ id: string; name: string }>(db, {
 *   columns: sql`t.id, t.name`, from: sql`topics t`, key: sql`t.id`, keyType: 'uuid',
 *   rowBytes: sql`64 + octet_length(t.name)`,
 * });
 */
export async function readPaged<T extends object>(
  db: Db,
  query: PagedQuery,
  options: { pageBytes?: number; pageRows?: number; writes?: readonly SQL[] } = {},
): Promise<T[]> {
  const { pageBytes = PAGE_BYTES, pageRows = PAGE_ROWS, writes = [] } = options;
  const { columns, from, where = sql`TRUE`, key, rowBytes } = query;
  const cast = sql.raw(query.keyType);
  const rows: T[] = [];
  let after: unknown;
  for (let first = true; ; first = false) {
    const resume = first ? sql`TRUE` : sql`${key} > ${after}::${cast}`;
    // The next rows (one more than a page holds: whether any are left), then the text before each.
    const page = await queryRows<PageRow>(
      db,
      withWrites(
        first ? writes : [],
        sql`SELECT * FROM (
            SELECT next.*, count(*) OVER () AS page_left,
              sum(next.page_bytes) OVER (ORDER BY next.page_key) - next.page_bytes AS page_before,
              row_number() OVER (ORDER BY next.page_key) AS page_row
            FROM (
              SELECT ${columns}, ${key} AS page_key, (${rowBytes}) AS page_bytes
              FROM ${from}
              WHERE (${where}) AND ${resume}
              ORDER BY ${key} LIMIT ${pageRows + 1}::int
            ) next
          ) page WHERE page_before < ${pageBytes}::int AND page_row <= ${pageRows}::int ORDER BY page_key`,
      ),
    );
    for (const {
      page_key,
      page_left: _left,
      page_before: _before,
      page_bytes: _bytes,
      page_row: _row,
      ...row
    } of page) {
      rows.push(row as T);
      after = page_key;
    }
    const last = page[0];
    if (!last || Number(last.page_left) <= page.length) return rows;
  }
}
