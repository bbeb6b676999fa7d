/**
 * A small BIFF8 (Excel 97-2003 .xls) writer for tests and benchmarks, writing the records Excel
 * writes for cell values: LABELSST over a shared string table continued in CONTINUE records (a
 * string cut at a continuation goes on in the width its characters need), RK and MULRK for numbers
 * that fit, NUMBER otherwise, BOOLERR, FORMULA with cached results (a string one in a STRING
 * record), XF/FORMAT for dates, DATEMODE, hidden sheets, and optionally FILEPASS. Rows are written
 * as they are given, so a generator of rows writes a large workbook without holding it.
 */
import CFB from 'cfb';

/** A cell value: text, a number, a boolean, an error code, a date serial, or a formula's cached result. */
export type XlsValue =
  | string
  | number
  | boolean
  | null
  | { error: number }
  | { date: number }
  | { percent: number }
  | { formula: string | number | boolean | { error: number } | '' };

export interface XlsSheet {
  name: string;
  hidden?: boolean;
  rows: Iterable<XlsValue[]>;
}

export interface XlsOptions {
  date1904?: boolean;
  /** Writes a FILEPASS record, as an encrypted workbook has (the rest stays readable here). */
  encrypted?: boolean;
  /** Largest record body before a CONTINUE (Excel's is 8224; smaller splits more strings). */
  maxRecord?: number;
  /** Writes each sheet's rows last first (a valid file, though not as Excel orders it). */
  reverseRows?: boolean;
  /** Title and author in the SummaryInformation stream (8-bit strings). */
  properties?: { title?: string; author?: string };
}

/** A growable byte buffer. */
class Bytes {
  buf = Buffer.alloc(1 << 16);
  length = 0;
  #room(bytes: number): void {
    if (this.length + bytes <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.length + bytes));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  u8(value: number): void {
    this.#room(1);
    this.buf[this.length++] = value;
  }
  u16(value: number): void {
    this.#room(2);
    this.buf.writeUInt16LE(value, this.length);
    this.length += 2;
  }
  u32(value: number): void {
    this.#room(4);
    this.buf.writeUInt32LE(value >>> 0, this.length);
    this.length += 4;
  }
  f64(value: number): void {
    this.#room(8);
    this.buf.writeDoubleLE(value, this.length);
    this.length += 8;
  }
  bytes(data: Uint8Array): void {
    this.#room(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }
  record(type: number, write: (body: Bytes) => void): void {
    const start = this.length;
    this.u16(type);
    this.u16(0);
    write(this);
    this.buf.writeUInt16LE(this.length - start - 4, start + 2);
  }
  done(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

/** Whether a text needs 16-bit characters (anything past Latin-1). */
function wide(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return true;
  return false;
}

function stringChars(out: Bytes, text: string): void {
  if (wide(text)) {
    out.u8(1);
    out.bytes(Buffer.from(text, 'utf16le'));
  } else {
    out.u8(0);
    out.bytes(Buffer.from(text, 'latin1'));
  }
}

/** An XLUnicodeString: a 16-bit count, flags, characters. */
function unicodeString(out: Bytes, text: string): void {
  out.u16(text.length);
  stringChars(out, text);
}

/** The SST record and its CONTINUE records, strings cut where a record is full. */
function writeSst(out: Bytes, strings: string[], total: number, maxRecord: number): void {
  let body = new Bytes();
  const flush = (type: number) => {
    const bytes = body.done();
    out.u16(type);
    out.u16(bytes.length);
    out.bytes(bytes);
    body = new Bytes();
  };
  let type = 0x00fc;
  body.u32(total);
  body.u32(strings.length);
  for (const text of strings) {
    if (body.length + 3 + 1 > maxRecord) {
      flush(type);
      type = 0x003c;
    }
    body.u16(text.length);
    let flags = wide(text) ? 1 : 0;
    body.u8(flags);
    let rest = text;
    while (rest.length > 0) {
      const unit = flags ? 2 : 1;
      const fit = Math.max(0, Math.floor((maxRecord - body.length) / unit));
      const piece = rest.slice(0, fit);
      body.bytes(Buffer.from(piece, flags ? 'utf16le' : 'latin1'));
      rest = rest.slice(piece.length);
      if (rest.length === 0) break;
      flush(type);
      type = 0x003c;
      // A continued string starts its continuation with the flags of the rest's own width.
      flags = wide(rest) ? 1 : 0;
      body.u8(flags);
    }
  }
  flush(type);
}

/** An RK value when the number is an integer of 30 bits (or one after x100), else undefined. */
function rk(value: number): number | undefined {
  if (Number.isInteger(value) && value >= -(2 ** 29) && value < 2 ** 29) return ((value << 2) | 2) >>> 0;
  const hundred = value * 100;
  if (Number.isInteger(hundred) && hundred >= -(2 ** 29) && hundred < 2 ** 29)
    return ((hundred << 2) | 3) >>> 0;
  return undefined;
}

/** XF indexes written in the globals: 0 general, 1 a built-in date (id 14), 2 a percentage (id 10), 3 a custom date (id 164). */
const XF_GENERAL = 0;
const XF_PERCENT = 2;
const XF_DATE = 3;

function bof(out: Bytes, kind: number): void {
  out.record(0x0809, (b) => {
    b.u16(0x0600);
    b.u16(kind);
    b.u16(0x0dbb);
    b.u16(0x07cc);
    b.u32(0);
    b.u32(0x0006);
  });
}

function summaryInformation(properties: { title?: string; author?: string }): Buffer {
  const entries = [
    [2, properties.title],
    [4, properties.author],
  ].filter((entry): entry is [number, string] => typeof entry[1] === 'string');
  const values = new Bytes();
  const offsets: number[] = [];
  // The code page first (1252), then each string as VT_LPSTR.
  const base = 8 + 8 * (entries.length + 1);
  offsets.push(base + values.length);
  values.u32(0x02);
  values.u16(1252);
  values.u16(0);
  for (const [, text] of entries) {
    offsets.push(base + values.length);
    values.u32(0x1e);
    const bytes = Buffer.from(`${text}\u0000`, 'latin1');
    values.u32(bytes.length);
    values.bytes(bytes);
    while (values.length % 4) values.u8(0);
  }
  const set = new Bytes();
  set.u32(base + values.length);
  set.u32(entries.length + 1);
  set.u32(1);
  set.u32(offsets[0] as number);
  entries.forEach(([id], i) => {
    set.u32(id);
    set.u32(offsets[i + 1] as number);
  });
  set.bytes(values.done());
  const out = new Bytes();
  out.u16(0xfffe);
  out.u16(0);
  out.u32(0x00020006);
  out.bytes(Buffer.alloc(16));
  out.u32(1);
  out.bytes(Buffer.from('e0859ff2f94f6810ab9108002b27b3d9', 'hex'));
  out.u32(48);
  out.bytes(set.done());
  return out.done();
}

/**
 * Writes a workbook as an .xls file (an OLE compound file holding the Workbook stream).
 *
 * @example writeXls([{ name: 'Budget', rows: [['Item', 'Amount'], ['Servers', 500000]] }])
 */
export function writeXls(sheets: XlsSheet[], options: XlsOptions = {}): Uint8Array {
  const maxRecord = options.maxRecord ?? 8224;
  const strings = new Map<string, number>();
  let stringCount = 0;
  const share = (text: string) => {
    stringCount++;
    let index = strings.get(text);
    if (index === undefined) {
      index = strings.size;
      strings.set(text, index);
    }
    return index;
  };
  // Sheets first, into one buffer: the globals before them need the shared strings they use.
  const body = new Bytes();
  const offsets: number[] = [];
  for (const sheet of sheets) {
    offsets.push(body.length);
    bof(body, 0x0010);
    body.record(0x0200, (b) => b.bytes(Buffer.alloc(14)));
    const numbered = [...(options.reverseRows ? [...sheet.rows].entries() : [])].reverse();
    let r = 0;
    for (const row of options.reverseRows ? numbered.map(([, row]) => row) : sheet.rows) {
      if (options.reverseRows) r = (numbered.shift() as [number, XlsValue[]])[0];
      let c = 0;
      while (c < row.length) {
        // Runs of RK numbers share a MULRK record, as Excel writes them.
        let end = c;
        while (end < row.length && typeof row[end] === 'number' && rk(row[end] as number) !== undefined)
          end++;
        if (end - c >= 2) {
          const first = c;
          body.record(0x00bd, (b) => {
            b.u16(r);
            b.u16(first);
            for (let k = first; k < end; k++) {
              b.u16(XF_GENERAL);
              b.u32(rk(row[k] as number) as number);
            }
            b.u16(end - 1);
          });
          c = end;
          continue;
        }
        writeCell(body, r, c, row[c] ?? null, share);
        c++;
      }
      r++;
    }
    body.record(0x000a, () => {});
  }
  const globals = new Bytes();
  bof(globals, 0x0005);
  if (options.encrypted) globals.record(0x002f, (b) => b.bytes(Buffer.alloc(54)));
  globals.record(0x0042, (b) => b.u16(1200));
  globals.record(0x0022, (b) => b.u16(options.date1904 ? 1 : 0));
  globals.record(0x041e, (b) => {
    b.u16(164);
    unicodeString(b, 'yyyy"年"m"月"d"日"');
  });
  for (const format of [0, 14, 10, 164]) {
    globals.record(0x00e0, (b) => {
      b.u16(0);
      b.u16(format);
      b.bytes(Buffer.alloc(16));
    });
  }
  const boundsheets: number[] = [];
  for (const sheet of sheets) {
    boundsheets.push(globals.length + 4);
    globals.record(0x0085, (b) => {
      b.u32(0);
      b.u8(sheet.hidden ? 1 : 0);
      b.u8(0);
      b.u8(sheet.name.length);
      stringChars(b, sheet.name);
    });
  }
  writeSst(globals, [...strings.keys()], stringCount, maxRecord);
  globals.record(0x000a, () => {});
  const head = globals.done();
  boundsheets.forEach((at, i) => {
    head.writeUInt32LE(head.length + (offsets[i] as number), at);
  });
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/Workbook', Buffer.concat([head, body.done()]));
  if (options.properties) {
    CFB.utils.cfb_add(container, '/\u0005SummaryInformation', summaryInformation(options.properties));
  }
  return new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer);
}

function writeCell(out: Bytes, r: number, c: number, value: XlsValue, share: (text: string) => number): void {
  const cell = (b: Bytes, xf = XF_GENERAL) => {
    b.u16(r);
    b.u16(c);
    b.u16(xf);
  };
  if (value === null) return;
  if (typeof value === 'string') {
    out.record(0x00fd, (b) => {
      cell(b);
      b.u32(share(value));
    });
  } else if (typeof value === 'boolean' || (typeof value === 'object' && 'error' in value)) {
    out.record(0x0205, (b) => {
      cell(b);
      b.u8(typeof value === 'boolean' ? Number(value) : value.error);
      b.u8(typeof value === 'boolean' ? 0 : 1);
    });
  } else if (typeof value === 'number' || 'date' in value || 'percent' in value) {
    const [number, xf] =
      typeof value === 'number'
        ? [value, XF_GENERAL]
        : 'date' in value
          ? [value.date, XF_DATE]
          : [value.percent, XF_PERCENT];
    const packed = rk(number);
    if (packed === undefined) {
      out.record(0x0203, (b) => {
        cell(b, xf);
        b.f64(number);
      });
    } else {
      out.record(0x027e, (b) => {
        cell(b, xf);
        b.u32(packed);
      });
    }
  } else {
    const result = value.formula;
    out.record(0x0006, (b) => {
      cell(b);
      if (typeof result === 'number') b.f64(result);
      else {
        const [kind, byte] =
          typeof result === 'string'
            ? [result === '' ? 3 : 0, 0]
            : typeof result === 'boolean'
              ? [1, Number(result)]
              : [2, result.error];
        b.bytes(Buffer.from([kind, 0, byte, 0, 0, 0, 0xff, 0xff]));
      }
      b.u16(0);
      b.u32(0);
      // The formula itself: `1` (PtgInt), which the reader never evaluates.
      b.u16(3);
      b.bytes(Buffer.from([0x1e, 1, 0]));
    });
    if (typeof result === 'string' && result !== '') out.record(0x0207, (b) => unicodeString(b, result));
  }
}
