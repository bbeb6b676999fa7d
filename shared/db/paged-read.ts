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
}

/**
 * Reads every row of `query` in key order, in pages of about `pageBytes` of text (default a quarter
 * of the Data API's 1 MiB result): any read whose size grows with the corpus (topics, documents) or
 * with a document (its nodes, images, summaries) goes through here, never as one result. Each page
 * takes rows while the text before them stays under the budget (so a page always has a row) and
 * resumes after the last key; the window also counts what is left, so the last page ends the reading
 * without another call. `writes` go with the first page (`withWrites`).
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
  options: { pageBytes?: number; writes?: readonly SQL[] } = {},
): Promise<T[]> {
  const { pageBytes = PAGE_BYTES, writes = [] } = options;
  const { columns, from, where = sql`TRUE`, key, rowBytes } = query;
  const cast = sql.raw(query.keyType);
  const rows: T[] = [];
  let after: unknown;
  for (let first = true; ; first = false) {
    const resume = first ? sql`TRUE` : sql`${key} > ${after}::${cast}`;
    const page = await queryRows<PageRow>(
      db,
      withWrites(
        first ? writes : [],
        sql`SELECT * FROM (
            SELECT ${columns}, ${key} AS page_key, count(*) OVER () AS page_left,
              sum(${rowBytes}) OVER (ORDER BY ${key}) - (${rowBytes}) AS page_before
            FROM ${from}
            WHERE (${where}) AND ${resume}
          ) page WHERE page_before < ${pageBytes}::int ORDER BY page_key`,
      ),
    );
    for (const { page_key, page_left: _left, page_before: _before, ...row } of page) {
      rows.push(row as T);
      after = page_key;
    }
    const last = page[0];
    if (!last || Number(last.page_left) <= page.length) return rows;
  }
}
