import type { CellObject, FullProperties, WorkBook, WorkSheet } from '@e965/xlsx';
import { cellText } from '../xlsx/cell-text.ts';
import type { SheetCell, SheetRow } from '../xlsx/sheet-layout.ts';
import type { SheetSource } from '../xlsx/sheet-section.ts';
import { sheetCell } from './sheet-cell.ts';

/** A workbook from any reader: its sheets in order (read when asked for), date system, properties. */
export interface WorkbookSource {
  date1904: boolean;
  sheets: Iterable<SheetSource>;
  properties: FullProperties;
}

/** A SheetJS cell as the text Excel shows: cached values, dates by their number format, errors as written. */
function cellOf(cell: CellObject | undefined, column: number, date1904: boolean): SheetCell | undefined {
  if (!cell || cell.t === 'z') return undefined;
  const value = cell.t === 'e' ? (cell.w ?? '') : cell.v;
  // Text (every CSV cell) is its own text; numbers and dates go through their number format.
  const text =
    typeof value === 'string'
      ? value
      : cellText(value as never, { numFmt: typeof cell.z === 'string' ? cell.z : undefined, date1904 });
  return sheetCell(column + 1, text, cell.t === 's');
}

function* sheetRows(sheet: WorkSheet, date1904: boolean): Iterable<SheetRow> {
  const data = (sheet['!data'] ?? []) as (CellObject[] | undefined)[];
  for (let r = 0; r < data.length; r++) {
    const row = data[r];
    const cells: SheetCell[] = [];
    if (row) {
      for (let c = 0; c < row.length; c++) {
        const cell = cellOf(row[c], c, date1904);
        if (cell) cells.push(cell);
      }
    }
    yield { number: r + 1, cells };
  }
}

function* bookSheets(book: WorkBook, date1904: boolean): Iterable<SheetSource> {
  for (const [index, name] of book.SheetNames.entries()) {
    const sheet = book.Sheets[name];
    if (!sheet) continue;
    const hidden = Boolean(book.Workbook?.Sheets?.[index]?.Hidden);
    yield { name, hidden, rows: sheetRows(sheet, date1904) };
  }
}

/**
 * A workbook SheetJS has read (with `dense: true`), as the sheets the tree is built from. With
 * `onlySheet`, the first sheet is taken alone under that name (a CSV file is one sheet named after it).
 *
 * @example sheetjsWorkbook(XLSX.read(bytes, { dense: true, cellNF: true })).sheets
 */
export function sheetjsWorkbook(book: WorkBook, onlySheet?: string): WorkbookSource {
  const date1904 = Boolean(book.Workbook?.WBProps?.date1904);
  const [first] = book.SheetNames;
  if (onlySheet !== undefined && first !== undefined && first !== onlySheet) {
    book.Sheets[onlySheet] = book.Sheets[first] as WorkSheet;
    book.SheetNames = [onlySheet];
  }
  return { date1904, sheets: bookSheets(book, date1904), properties: book.Props ?? {} };
}
