import type { Row } from 'exceljs';
import type { ParagraphNode, SectionNode, TreeNode } from '../types.ts';
import { type CellFormat, cellText } from './cell-text.ts';
import { fallbackColumnName } from './column-name.ts';
import { createRowParagraphs } from './row-paragraphs.ts';
import {
  chooseLayout,
  columnLabel,
  formLines,
  LAYOUT_LOOKAHEAD,
  type SheetCell,
  type SheetRow,
} from './sheet-layout.ts';

/** What the streaming reader gives for one worksheet (its typings omit name and state). */
export interface StreamedSheet extends AsyncIterable<Row> {
  name: string;
  state?: string;
}

export interface SheetReadOptions {
  maxChars: number;
  date1904: boolean;
  /** Checked before each row: the parse's time limit. */
  signal?: AbortSignal;
  /** Called for every row the sheet stores, empty ones included (the workbook's row limit). */
  countRow?: () => void;
}

/** One line per cell: a value's own line breaks would read as new "column: value" pairs. */
export function oneLine(text: string): string {
  return text.includes('\n') || text.includes('\r') ? text.replace(/\s*[\r\n]+\s*/g, ' ') : text;
}

/** Text that reads as a number or an amount ("$500,000", "40%", "1,200.50") is a value, not a label. */
const AMOUNT = /^[-+(]?\s*[$€£¥₹]?\s*[-+]?[\d.,\s]+\s*[%KMB]?\s*[$€£¥元)]?$/i;

/** A cell whose value is text (not a number, date or boolean) and does not read as an amount. */
export function isTextLabel(textual: boolean, text: string): boolean {
  return textual && !AMOUNT.test(text);
}

function isLabel(value: unknown, text: string): boolean {
  const textual =
    typeof value === 'string' || (typeof value === 'object' && value !== null && 'richText' in value);
  return isTextLabel(textual, text);
}

function rowCells(row: Row, date1904: boolean): SheetCell[] {
  const cells: SheetCell[] = [];
  row.eachCell((cell, column) => {
    const format: CellFormat = { numFmt: cell.numFmt, date1904 };
    const text = oneLine(cellText(cell.value, format));
    if (text) cells.push({ column, text, label: isLabel(cell.value, text) });
  });
  return cells;
}

/** A row's cells as "column: value" lines, each column named by `names[column]` ("Name: "). */
function namedLines(row: SheetRow, names: string[]): string {
  let text = '';
  for (const cell of row.cells) {
    const name = names[cell.column] ?? `${fallbackColumnName(cell.column)}: `;
    text = text ? `${text}\n${name}${cell.text}` : name + cell.text;
  }
  return text;
}

const lowerCased = (names: ReadonlyMap<number, string>) =>
  new Map([...names].map(([column, name]) => [column, name.toLowerCase()]));

/**
 * Whether at least two of a row's cells are names of other columns of the header above it
 * (`names`: column → lower-cased name). A cell equal to its own column's name is a value that the
 * header row happens to hold (a sheet whose first row is data), not a new header.
 */
function repeatsHeader(row: SheetRow, names: ReadonlyMap<number, string>): boolean {
  const all = new Set(names.values());
  const moved = row.cells.filter((cell) => {
    const name = columnLabel(cell.text).toLowerCase();
    return all.has(name) && names.get(cell.column) !== name;
  });
  return moved.length >= 2;
}

/** Renders rows once the layout is known: notes, the header, then "column: value" rows. */
function createRowRenderer(sheet: string, maxChars: number) {
  const paragraphs = createRowParagraphs(sheet, maxChars);
  const notes: ParagraphNode[] = [];
  const metadata: Record<string, unknown> = { sheet };
  let header: Map<number, string> | undefined;
  let headerRow = 0;
  /** The header the rows are read under now, column → lower-cased name (the first's or a sub-table's). */
  let currentNames = new Map<number, string>();
  // Each row's cells never hold a line break (`oneLine`), so its lines join into one string.
  let render: (row: SheetRow) => string = (row) => namedLines(row, []);

  const start = (rows: SheetRow[]) => {
    const layout = chooseLayout(rows);
    if (layout.kind === 'form') {
      metadata.layout = 'form';
      render = (row) => formLines(row).join('\n');
    } else {
      for (const row of rows.slice(0, layout.notes)) {
        notes.push({
          type: 'paragraph',
          text: row.cells.map((cell) => cell.text).join(' '),
          metadata: { kind: 'note', sheet, row: row.number },
        });
      }
      const first = rows[layout.notes];
      if (layout.kind === 'table' && first) {
        const names = new Map(first.cells.map((cell) => [cell.column, columnLabel(cell.text)]));
        header = names;
        currentNames = lowerCased(names);
        headerRow = first.number;
        const prefixes: string[] = [];
        for (const [column, name] of names) prefixes[column] = `${name}: `;
        render = (row) => namedLines(row, prefixes);
      }
    }
    const body = layout.kind === 'form' ? rows : rows.slice(layout.notes + (header ? 1 : 0));
    for (const row of body) add(row);
  };
  let previous = 0;
  let valued = false;
  const add = (row: SheetRow) => {
    // A row of labels after a blank row, under rows that held values, heads a sub-table: its own
    // header names its columns from here on (not the first header's). So does a row of labels that
    // repeats two of the current header's names, blank row or not, even where every cell above was
    // text (a berth line-up's "ARRIVED BUT WAITING | REPORTED | QTY(IMP) | CARGO" block under its
    // "AT BERTH" block of "59793 MT" cells).
    const gap = previous > 0 && row.number > previous + 1;
    const labels = header !== undefined && row.cells.length > 1 && row.cells.every((cell) => cell.label);
    if (labels && ((gap && valued) || repeatsHeader(row, currentNames))) {
      const names = new Map(row.cells.map((cell) => [cell.column, columnLabel(cell.text)]));
      currentNames = lowerCased(names);
      const prefixes: string[] = [];
      for (const [column, name] of names) prefixes[column] = `${name}: `;
      render = (r) => namedLines(r, prefixes);
      paragraphs.startTable({ headerRow: row.number, columns: columnNames(names) });
      previous = row.number;
      valued = false;
      return;
    }
    if (row.cells.some((cell) => !cell.label)) valued = true;
    previous = row.number;
    paragraphs.add(row.number, render(row));
  };
  const finish = (): { children: TreeNode[]; metadata: Record<string, unknown> } => {
    const children: TreeNode[] = [...notes, ...paragraphs.finish()];
    if (header) {
      const columns = columnNames(header);
      metadata.headerRow = headerRow;
      metadata.columns = columns;
      if (children.length === notes.length) {
        children.push({
          type: 'paragraph',
          text: `Columns: ${columns.join(', ')}`,
          metadata: { kind: 'header', sheet, row: headerRow },
        });
      }
    }
    return { children, metadata };
  };
  return { start, add, finish };
}

/** A sheet from any workbook reader: its name, whether it is hidden, and its rows in order. */
export interface SheetSource {
  name: string;
  hidden: boolean;
  /** Every stored row, empty ones included (they count against the row limit). */
  rows: AsyncIterable<SheetRow> | Iterable<SheetRow>;
}

/**
 * Builds a sheet's section from its rows, titled by the sheet's name. Its first rows choose the
 * layout (see `chooseLayout`): a header row names the columns (a blank header cell is named by its
 * letter, `Column C`) and title rows above it become notes; a form reads as "label: value" pairs.
 * Every later row becomes "column: value" lines, empty cells skipped, grouped into paragraphs of at
 * most `maxChars`. Only the first few rows and the current one are held, so memory stays bounded
 * whatever the sheet's size. A merged range's value is stored in its top-left cell alone, so it is
 * given once, not repeated over the range. Every workbook format (.xlsx, .xls, .ods, CSV) ends here.
 */
export async function sheetSection(source: SheetSource, options: SheetReadOptions): Promise<SectionNode> {
  const renderer = createRowRenderer(source.name, options.maxChars);
  const lookahead: SheetRow[] = [];
  let started = false;
  const take = (sheetRow: SheetRow) => {
    options.signal?.throwIfAborted();
    options.countRow?.();
    if (sheetRow.cells.length === 0) return;
    if (started) {
      renderer.add(sheetRow);
      return;
    }
    lookahead.push(sheetRow);
    if (lookahead.length >= LAYOUT_LOOKAHEAD) {
      renderer.start(lookahead);
      started = true;
    }
  };
  // Rows read in memory (SheetJS) are taken without a promise per row; streamed ones are awaited.
  if (Symbol.iterator in source.rows) for (const sheetRow of source.rows) take(sheetRow);
  else for await (const sheetRow of source.rows) take(sheetRow);
  if (!started) renderer.start(lookahead);
  const { children, metadata } = renderer.finish();
  if (source.hidden) metadata.hidden = true;
  return { type: 'section', title: source.name, children, metadata };
}

async function* streamedRows(sheet: StreamedSheet, date1904: boolean): AsyncIterable<SheetRow> {
  for await (const row of sheet) yield { number: row.number, cells: rowCells(row, date1904) };
}

/** Reads one exceljs worksheet row by row into its section (see `sheetSection`). */
export function readSheetSection(sheet: StreamedSheet, options: SheetReadOptions): Promise<SectionNode> {
  const hidden = sheet.state === 'hidden' || sheet.state === 'veryHidden';
  return sheetSection({ name: sheet.name, hidden, rows: streamedRows(sheet, options.date1904) }, options);
}

/** Header names from the first to the last named column, gaps named by their letter. */
function columnNames(header: Map<number, string>): string[] {
  const first = Math.min(...header.keys());
  const last = Math.max(...header.keys());
  const names: string[] = [];
  for (let column = first; column <= last; column++)
    names.push(header.get(column) ?? fallbackColumnName(column));
  return names;
}
