import type { CellFormat } from '../xlsx/cell-text.ts';
import { RECORD, type RecordBody, type RecordCursor } from './biff-records.ts';
import { XLSX } from './sheetjs.ts';

/** The built-in number formats by id, as SheetJS names them (a file's FORMAT records add to them). */
const BUILT_IN_FORMATS: Readonly<Record<number, string>> = {
  ...(XLSX.SSF.get_table() as Record<number, string>),
};

const BIFF8 = 0x0600;
const BOF_GLOBALS = 0x0005;

/** What the workbook globals say: sheets by the offset of their BOF, shared strings, cell formats. */
export interface XlsGlobals {
  date1904: boolean;
  sheets: Map<number, { name: string; hidden: boolean }>;
  strings: string[];
  /** By XF index: the number format a cell with that XF shows its number in. */
  formats: CellFormat[];
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
export function readGlobals(cursor: RecordCursor): XlsGlobals {
  const formats: Record<number, string | undefined> = { ...BUILT_IN_FORMATS };
  const xfFormats: number[] = [];
  const globals: XlsGlobals = { date1904: false, sheets: new Map(), strings: [], formats: [] };
  cursor.next();
  while (cursor.next() && cursor.type !== RECORD.EOF) {
    switch (cursor.type) {
      case RECORD.FILEPASS:
        throw new Error('the workbook is encrypted (it is password-protected)');
      case RECORD.DATEMODE:
        cursor.need(2);
        globals.date1904 = cursor.buf.readUInt16LE(cursor.pos) === 1;
        break;
      case RECORD.FORMAT: {
        const body = cursor.body();
        const id = body.u16();
        formats[id] = body.unicodeChars(body.u16());
        break;
      }
      case RECORD.XF:
        cursor.need(4);
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
