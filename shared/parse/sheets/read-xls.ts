import { type CellFormat, cellText } from '../xlsx/cell-text.ts';
import type { SheetCell, SheetRow } from '../xlsx/sheet-layout.ts';
import type { SheetSource } from '../xlsx/sheet-section.ts';
import { RECORD, RecordCursor } from './biff-records.ts';
import { sheetCell } from './sheet-cell.ts';
import { readGlobals, type XlsGlobals } from './xls-globals.ts';

/** Error values by code ([MS-XLS] 2.5.10), as Excel writes them. */
const ERRORS: Readonly<Record<number, string>> = {
  0: '#NULL!',
  7: '#DIV/0!',
  15: '#VALUE!',
  23: '#REF!',
  29: '#NAME?',
  36: '#NUM!',
  42: '#N/A',
  43: '#GETTING_DATA',
  255: '#WTF?',
};

const BOF_CHART = 0x0020;

/**
 * An .xls workbook read record by record: its date system, then its sheets one at a time. Each
 * sheet's rows stream from the file: read them before asking for the next sheet (rows left unread
 * are skipped).
 */
export interface XlsWorkbook {
  date1904: boolean;
  sheets: Iterable<SheetSource>;
}

/** An RK number ([MS-XLS] 2.5.217): 30 bits of an integer or of a double's high word, maybe x100. */
const rkScratch = new DataView(new ArrayBuffer(8));
function rkNumber(buf: Buffer, at: number): number {
  const raw = buf.readInt32LE(at);
  let value: number;
  if (raw & 2) value = raw >> 2;
  else {
    rkScratch.setUint32(0, 0, true);
    rkScratch.setUint32(4, (raw & ~3) >>> 0, true);
    value = rkScratch.getFloat64(0, true);
  }
  return raw & 1 ? value / 100 : value;
}

/** A cell that is stored but shows nothing (an empty string, an unknown cached type). */
const BLANK = null;

/** One sheet's cells by row and column, as stored; later records for a cell replace earlier ones. */
class SheetGrid {
  readonly #rows: ((SheetCell | typeof BLANK)[] | undefined)[] = [];
  #last = -1;
  #next = 0;

  set(row: number, column: number, cell: SheetCell | undefined): void {
    this.touch(row);
    let cells = this.#rows[row];
    if (!cells) {
      cells = [];
      this.#rows[row] = cells;
    }
    cells[column] = cell ?? BLANK;
  }

  has(row: number, column: number): boolean {
    return this.#rows[row]?.[column] !== undefined;
  }

  /** A row that holds something (a comment) without a value still counts as stored. */
  touch(row: number): void {
    if (row > this.#last) this.#last = row;
  }

  /** The first row not yet given out. */
  get next(): number {
    return this.#next;
  }

  /** Gives out the rows before `before` (all stored rows when omitted), letting go of their cells. */
  *flush(before = this.#last + 1): Iterable<SheetRow> {
    for (; this.#next < before; this.#next++) {
      const cells: SheetCell[] = [];
      for (const cell of this.#rows[this.#next] ?? []) if (cell) cells.push(cell);
      this.#rows[this.#next] = undefined;
      yield { number: this.#next + 1, cells };
    }
  }
}

/** Records that hold a cell, their row first. */
const CELL_RECORDS: ReadonlySet<number> = new Set([
  RECORD.LABELSST,
  RECORD.NUMBER,
  RECORD.RK,
  RECORD.MULRK,
  RECORD.BOOLERR,
  RECORD.FORMULA,
  RECORD.LABEL,
  RECORD.RSTRING,
]);

/**
 * Looks ahead through a substream (from `offset`, after its BOF) without reading its cells: whether
 * it has its EOF, and whether its cells come in row order, as Excel and LibreOffice write them.
 */
function scanSheet(buf: Buffer, offset: number): { complete: boolean; inOrder: boolean } {
  const cursor = new RecordCursor(buf, offset);
  let depth = 1;
  let last = 0;
  let inOrder = true;
  try {
    while (cursor.next()) {
      if (cursor.type === RECORD.BOF) depth++;
      else if (cursor.type === RECORD.EOF && --depth === 0) return { complete: true, inOrder };
      else if (depth === 1 && CELL_RECORDS.has(cursor.type) && cursor.end - cursor.pos >= 2) {
        const row = buf.readUInt16LE(cursor.pos);
        if (row < last) inOrder = false;
        else last = row;
      }
    }
  } catch {
    // A record past the stream's end: reading the sheet says so.
  }
  return { complete: false, inOrder: false };
}

/**
 * Reads one substream's cells up to its EOF (embedded charts' records skipped) and gives out its
 * rows: each as soon as a later row's cell comes when `inOrder`, else all at the EOF. Returns
 * whether the EOF came.
 */
function* sheetRows(
  cursor: RecordCursor,
  globals: XlsGlobals,
  chart: boolean,
  inOrder: boolean,
  signal?: AbortSignal,
): Generator<SheetRow, boolean> {
  const grid = new SheetGrid();
  const { buf } = cursor;
  const formatOf = (xf: number): CellFormat => globals.formats[xf] ?? { date1904: globals.date1904 };
  const number = (row: number, column: number, value: number, xf: number) =>
    grid.set(row, column, sheetCell(column + 1, cellText(value, formatOf(xf)), false));
  let depth = 1;
  let formula: { row: number; column: number } | undefined;
  for (let records = 0; cursor.next(); records++) {
    if ((records & 0xfff) === 0) signal?.throwIfAborted();
    const { type, pos } = cursor;
    if (type === RECORD.BOF) depth++;
    else if (type === RECORD.EOF && --depth === 0) {
      yield* grid.flush();
      return true;
    }
    if (depth > 1) continue;
    // In row order, the rows before this cell's are complete: give them out, keep memory flat.
    if (inOrder && CELL_RECORDS.has(type) && buf.readUInt16LE(pos) > grid.next) {
      yield* grid.flush(buf.readUInt16LE(pos));
    }
    switch (type) {
      case RECORD.LABELSST: {
        cursor.need(10);
        const index = buf.readUInt32LE(pos + 6);
        const text = globals.strings[index];
        if (text === undefined)
          throw new Error(`a cell refers to shared string ${index} of ${globals.strings.length}`);
        const column = buf.readUInt16LE(pos + 2);
        grid.set(buf.readUInt16LE(pos), column, sheetCell(column + 1, text, true));
        break;
      }
      case RECORD.NUMBER: {
        cursor.need(14);
        const row = buf.readUInt16LE(pos);
        let column = buf.readUInt16LE(pos + 2);
        // Chart sheets cache series values; a second value for a cell goes one column right.
        if (chart && grid.has(row, column)) column++;
        number(row, column, buf.readDoubleLE(pos + 6), buf.readUInt16LE(pos + 4));
        break;
      }
      case RECORD.RK:
        cursor.need(10);
        number(
          buf.readUInt16LE(pos),
          buf.readUInt16LE(pos + 2),
          rkNumber(buf, pos + 6),
          buf.readUInt16LE(pos + 4),
        );
        break;
      case RECORD.MULRK: {
        cursor.need(6);
        const row = buf.readUInt16LE(pos);
        const first = buf.readUInt16LE(pos + 2);
        const last = buf.readUInt16LE(cursor.end - 2);
        if ((cursor.end - pos - 6) % 6 !== 0 || (cursor.end - pos - 6) / 6 !== last - first + 1) {
          throw new Error(`a MULRK record at byte ${cursor.start} does not hold columns ${first} to ${last}`);
        }
        for (let column = first, at = pos + 4; column <= last; column++, at += 6) {
          number(row, column, rkNumber(buf, at + 2), buf.readUInt16LE(at));
        }
        break;
      }
      case RECORD.BOOLERR: {
        cursor.need(8);
        const value = buf[pos + 6] as number;
        const error = buf[pos + 7] === 1;
        const column = buf.readUInt16LE(pos + 2);
        const text = error ? (ERRORS[value] ?? '') : value === 1 ? 'TRUE' : 'FALSE';
        grid.set(buf.readUInt16LE(pos), column, sheetCell(column + 1, text, false));
        break;
      }
      case RECORD.FORMULA: {
        cursor.need(14);
        const row = buf.readUInt16LE(pos);
        const column = buf.readUInt16LE(pos + 2);
        formula = { row, column };
        // The cached result: a double, or (high word 0xFFFF) a string in the next STRING record,
        // a boolean, an error or an empty string.
        if (buf.readUInt16LE(pos + 12) !== 0xffff) {
          number(row, column, buf.readDoubleLE(pos + 6), buf.readUInt16LE(pos + 4));
          break;
        }
        const kind = buf[pos + 6];
        const value = buf[pos + 8] as number;
        if (kind === 0) break;
        const text = kind === 1 ? (value === 1 ? 'TRUE' : 'FALSE') : kind === 2 ? (ERRORS[value] ?? '') : '';
        grid.set(row, column, sheetCell(column + 1, text, kind === 3));
        break;
      }
      case RECORD.STRING: {
        if (!formula) throw new Error(`a STRING record at byte ${cursor.start} follows no formula`);
        const body = cursor.body();
        grid.set(
          formula.row,
          formula.column,
          sheetCell(formula.column + 1, body.unicodeChars(body.u16()), true),
        );
        formula = undefined;
        break;
      }
      case RECORD.LABEL:
      case RECORD.RSTRING: {
        const body = cursor.body();
        const row = body.u16();
        const column = body.u16();
        body.skip(2);
        grid.set(row, column, sheetCell(column + 1, body.unicodeChars(body.u16()), true));
        break;
      }
      case RECORD.NOTE:
        cursor.need(2);
        grid.touch(buf.readUInt16LE(pos));
        break;
    }
  }
  return false;
}

/** The sheets after the globals, in the order the stream holds them; a sheet is read when asked for. */
function* readSheets(cursor: RecordCursor, globals: XlsGlobals, signal?: AbortSignal): Iterable<SheetSource> {
  // Between substreams only a BOF may follow; anything else (zero padding) ends the workbook.
  while (cursor.next() && cursor.type === RECORD.BOF) {
    const sheet = globals.sheets.get(cursor.start);
    const chart = cursor.end - cursor.pos >= 4 && cursor.buf.readUInt16LE(cursor.pos + 2) === BOF_CHART;
    const { complete, inOrder } = scanSheet(cursor.buf, cursor.end);
    const rows = sheetRows(cursor, globals, chart, complete && inOrder, signal);
    // A sheet without its EOF is left out (as SheetJS leaves it), after reading it for damage.
    if (complete && sheet) yield { ...sheet, rows };
    // Whatever the caller left unread is read past, to reach the next substream.
    for (let step = rows.next(); !step.done; step = rows.next());
  }
}

/**
 * Reads the Workbook stream of an Excel 97-2003 (BIFF8) workbook record by record: the globals
 * (sheet names and states, shared strings, number formats, the 1904 date system), then each sheet
 * when the caller asks for it, its rows given out as they are read when its cells come in row
 * order (else held until its end), so memory stays near one row, at most one sheet. Cells are read as
 * SheetJS reads them (cached formula results, numbers by their format, errors as written, a stored
 * empty row still a row); an encrypted workbook fails with that reason, a truncated one too.
 *
 * @example for (const sheet of readXls(stream).sheets) sheet.name // 'Budget'
 */
export function readXls(stream: Buffer, signal?: AbortSignal): XlsWorkbook {
  const cursor = new RecordCursor(stream);
  const globals = readGlobals(cursor);
  return { date1904: globals.date1904, sheets: readSheets(cursor, globals, signal) };
}
