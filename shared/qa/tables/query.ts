import { z } from 'zod';
import { ValidationError } from '#shared/errors.ts';
import { words } from './question.ts';
import { cellNumber, type Table } from './table.ts';

const column = z.string().min(1).max(200).describe('A column name exactly as the table header gives it');

/**
 * A structured query over one table (the agent's `query_table` tool): filters, grouping with an
 * aggregate, sorting and a limit. DropQA executes it (`runTableQuery`); no model-written SQL.
 */
export const tableQuerySpec = z.object({
  filter: z
    .array(
      z.object({
        column,
        op: z
          .enum(['equals', 'contains', 'not_contains', '>', '>=', '<', '<='])
          .describe('equals / contains compare words, case ignored; the others compare numbers'),
        value: z.union([z.string().max(500), z.number()]),
      }),
    )
    .max(10)
    .default([])
    .describe('Conditions every returned row meets'),
  group_by: column.optional().describe('Groups the filtered rows by this column'),
  aggregate: z
    .object({
      op: z.enum(['count', 'sum', 'average', 'min', 'max']),
      column: column.optional().describe('The numeric column (not needed for count)'),
    })
    .optional()
    .describe('Over the filtered rows, or per group'),
  sort: z
    .object({ column, order: z.enum(['asc', 'desc']).default('asc') })
    .optional()
    .describe('Numbers sort as numbers, text as text'),
  limit: z.number().int().min(1).max(50).default(20),
});

export type TableQuery = z.infer<typeof tableQuerySpec>;

/** One group of a grouped query, or the whole filtered table: its aggregate and the rows it holds. */
export interface QueryGroup {
  key?: string;
  value?: number;
  /** How many rows it holds. */
  size: number;
  /** Indices into `table.rows`, in the order asked for (at most `limit`). */
  rows: number[];
}

/** What a query returns: the matching row count, and its groups (one, ungrouped) with their rows. */
export interface TableQueryResult {
  matched: number;
  groups: QueryGroup[];
}

function columnIndex(table: Table, name: string): number {
  const exact = table.columns.indexOf(name);
  const index =
    exact >= 0 ? exact : table.columns.findIndex((c) => c.toLowerCase() === name.trim().toLowerCase());
  if (index < 0)
    throw new ValidationError(
      `no column "${name}" in table "${table.title}"; columns: ${table.columns.join(', ')}`,
    );
  return index;
}

const contains = (cell: string, value: string) => {
  const want = words(value);
  const have = words(cell);
  return want.length > 0 && have.some((_, i) => want.every((w, j) => have[i + j] === w));
};

function aggregate(table: Table, rows: number[], op: string, c: number): number | undefined {
  if (op === 'count') return rows.length;
  const values = rows.flatMap((r) => {
    const v = cellNumber(table.rows[r]?.cells[c] ?? '');
    return v === undefined ? [] : [v];
  });
  if (values.length === 0) return undefined;
  if (op === 'min') return Math.min(...values);
  if (op === 'max') return Math.max(...values);
  const sum = values.reduce((s, v) => s + v, 0);
  return op === 'average' ? sum / values.length : sum;
}

/**
 * Runs a query over a table: keeps the rows every filter holds for, groups them (by `group_by`),
 * computes the aggregate per group (or over all kept rows), sorts rows (or groups by their
 * aggregate) and keeps `limit` of them (of a group's rows too; its aggregate counts them all). A column the table lacks is a `ValidationError` naming the
 * columns it has.
 *
 * @example runTableQuery(cups, { filter: [{ column: 'Team', op: 'contains', value: 'Maple Leafs' }], limit: 20 }) // { matched: 1, groups: [{ rows: [1] }] }
 */
export function runTableQuery(table: Table, query: TableQuery): TableQueryResult {
  const filters = query.filter.map((f) => ({ ...f, c: columnIndex(table, f.column) }));
  const kept = table.rows.flatMap((row, r) => {
    const ok = filters.every(({ c, op, value }) => {
      const cell = row.cells[c] ?? '';
      if (op === 'equals') return words(cell).join(' ') === words(String(value)).join(' ');
      if (op === 'contains') return contains(cell, String(value));
      if (op === 'not_contains') return !contains(cell, String(value));
      const n = cellNumber(cell);
      const v = typeof value === 'number' ? value : cellNumber(value);
      if (n === undefined || v === undefined) return false;
      return op === '>' ? n > v : op === '>=' ? n >= v : op === '<' ? n < v : n <= v;
    });
    return ok ? [r] : [];
  });
  const aggregateColumn =
    query.aggregate?.column === undefined ? -1 : columnIndex(table, query.aggregate.column);
  if (query.aggregate && query.aggregate.op !== 'count' && aggregateColumn < 0)
    throw new ValidationError(`aggregate ${query.aggregate.op} needs a column`);
  const sortColumn = query.sort ? columnIndex(table, query.sort.column) : -1;
  const sorted = sortColumn < 0 ? kept : sortRows(table, kept, sortColumn, query.sort?.order ?? 'asc');
  const aggregateOf = (rows: number[]) =>
    query.aggregate ? aggregate(table, rows, query.aggregate.op, aggregateColumn) : undefined;
  if (query.group_by === undefined) {
    const value = aggregateOf(kept);
    return {
      matched: kept.length,
      groups: [
        { ...(value !== undefined && { value }), size: kept.length, rows: sorted.slice(0, query.limit) },
      ],
    };
  }
  const by = columnIndex(table, query.group_by);
  const groups = new Map<string, number[]>();
  for (const r of sorted) {
    const key = table.rows[r]?.cells[by] ?? '';
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const list: QueryGroup[] = [...groups].map(([key, rows]) => {
    const value = aggregateOf(rows);
    return {
      key,
      ...(value !== undefined && { value }),
      size: rows.length,
      rows: rows.slice(0, query.limit),
    };
  });
  // Groups sort by their aggregate when there is one (largest first unless asc is asked for).
  if (query.aggregate)
    list.sort(
      (a, b) => ((query.sort?.order ?? 'desc') === 'asc' ? 1 : -1) * ((a.value ?? 0) - (b.value ?? 0)),
    );
  return { matched: kept.length, groups: list.slice(0, query.limit) };
}

/**
 * Rows in `order` of a column: numbers as numbers, text as text, numbers before text; empty cells
 * last in either order (an unknown value is neither the smallest nor the largest).
 */
function sortRows(table: Table, rows: number[], c: number, order: 'asc' | 'desc'): number[] {
  const sign = order === 'asc' ? 1 : -1;
  const keyed = rows.map((r) => {
    const text = (table.rows[r]?.cells[c] ?? '').trim();
    return { r, text, n: cellNumber(text), rank: text === '' ? 2 : cellNumber(text) === undefined ? 1 : 0 };
  });
  keyed.sort(
    (a, b) =>
      a.rank - b.rank ||
      (a.rank === 0
        ? sign * ((a.n ?? 0) - (b.n ?? 0))
        : a.rank === 1
          ? sign * a.text.localeCompare(b.text)
          : 0),
  );
  return keyed.map((k) => k.r);
}
