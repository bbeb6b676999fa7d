import { type CellFormat, cellText } from '../xlsx/cell-text.ts';
import type { SheetCell, SheetRow } from '../xlsx/sheet-layout.ts';
import type { SheetSource } from '../xlsx/sheet-section.ts';
import { RECORD, type RecordBody, RecordCursor } from './biff-records.ts';
import { sheetCell } from './sheet-cell.ts';
import { XLSX } from './sheetjs.ts';

/** The built-in number formats by id, as SheetJS names them (a file's FORMAT records add to them). */
const BUILT_IN_FORMATS: Readonly<Record<number, string>> = {
  ...(XLSX.SSF.get_table() as Record<number, string>),
};

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

const BIFF8 = 0x0600;
const BOF_GLOBALS = 0x0005;
const BOF_CHART = 0x0020;

/** What the workbook globals say: sheets by the offset of their BOF, shared strings, cell formats. */
interface Globals {
  date1904: boolean;
  sheets: Map<number, { name: string; hidden: boolean }>;
  strings: string[];
  /** By XF index: the number format a cell with that XF shows its number in. */
  formats: CellFormat[];
}

/** An .xls workbook read record by record: its date system, then its sheets one at a time. */
export interface XlsWorkbook {
  date1904: boolean;
  sheets: Iterable<SheetSource>;
}

/** Whether a Workbook stream starts with the BOF of BIFF8 workbook globals (Excel 97 and later). */
export function isBiff8(stream: Buffer): boolean {
  return (
    stream.length >= 8 &&
    stream.readUInt16LE(0) === RECORD.BOF &&
    stream.readUInt16LE(4) === BIFF8 &&
    stream.readUInt16LE(6) === BOF_GLOBALS
  );
}

function need(cursor: RecordCursor, bytes: number): void {
  if (cursor.end - cursor.pos < bytes) {
    throw new Error(
      `record 0x${cursor.type.toString(16)} at byte ${cursor.start} is ${cursor.end - cursor.pos} bytes, fewer than ${bytes}`,
    );
  }
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

/** The shared string table: each string's characters, its formatting runs and phonetic data skipped. */
function readSst(body: RecordBody): string[] {
  body.skip(4);
  const unique = body.u32();
  const strings: string[] = [];
  for (let i = 0; i < unique && body.pos < body.end; i++) {
    const count = body.u16();
    const flags = body.u8();
    const runs = flags & 0x08 ? body.u16() : 0;
    const extra = flags & 0x04 ? body.u32() : 0;
    strings.push(body.chars(count, (flags & 1) !== 0));
    // Formatting runs and phonetic data never cross into a string of their own: skip what is there.
    body.pos = Math.min(body.pos + 4 * runs + extra, body.end);
  }
  return strings;
}

/** Reads the globals substream, up to its EOF; an encrypted workbook stops here with that reason. */
function readGlobals(cursor: RecordCursor): Globals {
  const formats: Record<number, string | undefined> = { ...BUILT_IN_FORMATS };
  const xfFormats: number[] = [];
  const globals: Globals = { date1904: false, sheets: new Map(), strings: [], formats: [] };
  cursor.next();
  while (cursor.next() && cursor.type !== RECORD.EOF) {
    switch (cursor.type) {
      case RECORD.FILEPASS:
        throw new Error('the workbook is encrypted (it is password-protected)');
      case RECORD.DATEMODE:
        need(cursor, 2);
        globals.date1904 = cursor.buf.readUInt16LE(cursor.pos) === 1;
        break;
      case RECORD.FORMAT: {
        const body = cursor.body();
        const id = body.u16();
        formats[id] = body.unicodeChars(body.u16());
        break;
      }
      case RECORD.XF:
        need(cursor, 4);
        xfFormats.push(cursor.buf.readUInt16LE(cursor.pos + 2));
        break;
      case RECORD.BOUNDSHEET: {
        const body = cursor.body();
        const offset = body.u32();
        const hidden = (body.u8() & 3) !== 0;
        body.skip(1);
        const count = body.u8();
        const name = count ? body.chars(count, body.u8() !== 0) : '';
        globals.sheets.set(offset, { name: name || 'Sheet1', hidden });
        break;
      }
      case RECORD.SST:
        globals.strings = readSst(cursor.body());
        break;
    }
  }
  globals.formats = xfFormats.map((id) => ({ numFmt: formats[id], date1904: globals.date1904 }));
  return globals;
}

/** A cell that is stored but shows nothing (an empty string, an unknown cached type). */
const BLANK = null;

/** One sheet's cells by row and column, as stored; later records for a cell replace earlier ones. */
class SheetGrid {
  readonly #rows: ((SheetCell | typeof BLANK)[] | undefined)[] = [];
  #last = -1;

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

  *rows(): Iterable<SheetRow> {
    for (let row = 0; row <= this.#last; row++) {
      const cells: SheetCell[] = [];
      for (const cell of this.#rows[row] ?? []) if (cell) cells.push(cell);
      this.#rows[row] = undefined;
      yield { number: row + 1, cells };
    }
  }
}

/** Reads one substream's cells, up to its EOF (embedded charts' records skipped); undefined if cut. */
function readSheet(cursor: RecordCursor, globals: Globals, chart: boolean, signal?: AbortSignal) {
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
    else if (type === RECORD.EOF && --depth === 0) return grid;
    if (depth > 1) continue;
    switch (type) {
      case RECORD.LABELSST: {
        need(cursor, 10);
        const index = buf.readUInt32LE(pos + 6);
        const text = globals.strings[index];
        if (text === undefined)
          throw new Error(`a cell refers to shared string ${index} of ${globals.strings.length}`);
        const column = buf.readUInt16LE(pos + 2);
        grid.set(buf.readUInt16LE(pos), column, sheetCell(column + 1, text, true));
        break;
      }
      case RECORD.NUMBER: {
        need(cursor, 14);
        const row = buf.readUInt16LE(pos);
        let column = buf.readUInt16LE(pos + 2);
        // Chart sheets cache series values; a second value for a cell goes one column right.
        if (chart && grid.has(row, column)) column++;
        number(row, column, buf.readDoubleLE(pos + 6), buf.readUInt16LE(pos + 4));
        break;
      }
      case RECORD.RK:
        need(cursor, 10);
        number(
          buf.readUInt16LE(pos),
          buf.readUInt16LE(pos + 2),
          rkNumber(buf, pos + 6),
          buf.readUInt16LE(pos + 4),
        );
        break;
      case RECORD.MULRK: {
        need(cursor, 6);
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
        need(cursor, 8);
        const value = buf[pos + 6] as number;
        const error = buf[pos + 7] === 1;
        const column = buf.readUInt16LE(pos + 2);
        const text = error ? (ERRORS[value] ?? '') : value === 1 ? 'TRUE' : 'FALSE';
        grid.set(buf.readUInt16LE(pos), column, sheetCell(column + 1, text, false));
        break;
      }
      case RECORD.FORMULA: {
        need(cursor, 14);
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
        need(cursor, 2);
        grid.touch(buf.readUInt16LE(pos));
        break;
    }
  }
  return undefined;
}

/** The sheets after the globals, in the order the stream holds them; a sheet is read when asked for. */
function* readSheets(cursor: RecordCursor, globals: Globals, signal?: AbortSignal): Iterable<SheetSource> {
  // Between substreams only a BOF may follow; anything else (zero padding) ends the workbook.
  while (cursor.next() && cursor.type === RECORD.BOF) {
    const sheet = globals.sheets.get(cursor.start);
    const chart = cursor.end - cursor.pos >= 4 && cursor.buf.readUInt16LE(cursor.pos + 2) === BOF_CHART;
    const grid = readSheet(cursor, globals, chart, signal);
    if (grid && sheet) yield { ...sheet, rows: grid.rows() };
  }
}

/**
 * Reads the Workbook stream of an Excel 97-2003 (BIFF8) workbook record by record: the globals
 * (sheet names and states, shared strings, number formats, the 1904 date system), then each sheet
 * when the caller asks for it, so only one sheet's cells are held at a time. Cells are read as
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
