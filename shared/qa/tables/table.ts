import { rowFields, rowLine } from '#shared/index/row-lines.ts';

/** One row of a table as the planner reads it: its cells by column, where it stands, and its passage. */
export interface TableRow {
  /** The row's number in its sheet (or its place in the table, from 1). */
  number: number;
  /** Cell texts aligned with `Table.columns` ('' for an empty cell). */
  cells: string[];
  /** Index of the passage (`Table.passages`) that holds the row: what cites it. */
  passage: number;
}

/** A table read back from its passages: title, header names and rows, in order. */
export interface Table {
  /** The sheet's name, or the heading or caption above the table. */
  title: string;
  columns: string[];
  rows: TableRow[];
}

/**
 * The number a cell states: thousands separators, a currency sign, a percent sign, a unit or a note
 * after the number ("556+", "12 km", "$1,200.50", "45%") are read past. Undefined when the cell does
 * not start with a number.
 *
 * @example cellNumber('1,238') // 1238
 */
export function cellNumber(text: string): number | undefined {
  const match = /^\s*([-+−–]?)\s*[$€£¥₹]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?/.exec(text);
  if (!match) return undefined;
  const value = Number((match[2] ?? '').replaceAll(',', '') + (match[3] ?? ''));
  return match[1] && match[1] !== '+' ? -value : value;
}

const MONTH = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\b/i;

/** The year a cell names ("1 June 1999", "1999–2003", "2011"), the first one; undefined when none. */
export function cellYear(text: string): number | undefined {
  const match = /(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** Whether a cell reads as a date rather than an amount ("15 October 1956", "2010-05-20", "02/11/2017"). */
export function isDateCell(text: string): boolean {
  return (
    (MONTH.test(text) && cellYear(text) !== undefined) ||
    /^\d{4}-\d{2}-\d{2}/.test(text) ||
    /^\d{1,2}[/.]\d{1,2}[/.](?:\d{2}|\d{4})$/.test(text.trim())
  );
}

/** Whether most (70%) of a column's non-empty cells pass `test`. */
function mostCells(table: Table, column: number, test: (cell: string) => boolean): boolean {
  let filled = 0;
  let passed = 0;
  for (const row of table.rows) {
    const cell = row.cells[column] ?? '';
    if (!cell) continue;
    filled += 1;
    if (test(cell)) passed += 1;
  }
  return filled > 0 && passed * 10 >= filled * 7;
}

/** Whether most of a column's non-empty cells state a number (`cellNumber`) and are not dates. */
export function isNumericColumn(table: Table, column: number): boolean {
  return mostCells(table, column, (cell) => cellNumber(cell) !== undefined && !isDateCell(cell));
}

/** Whether most of a column's cells are dates (`isDateCell`), not bare years. */
export function isDateColumn(table: Table, column: number): boolean {
  return mostCells(table, column, isDateCell);
}

/** Whether most of a column's non-empty cells name a year (dates, seasons, years). */
export function isYearColumn(table: Table, column: number): boolean {
  return mostCells(table, column, (cell) => cellYear(cell) !== undefined);
}

/**
 * A row as it is quoted: "Team: Toronto Maple Leafs · Stanley Cups: 13", empty cells left out (the
 * indexer's `rowLine`, without the title).
 */
export function rowText(table: Table, row: TableRow): string {
  return rowLine(rowFields(table.columns, row.cells));
}
