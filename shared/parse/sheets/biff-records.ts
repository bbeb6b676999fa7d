/** BIFF record types the .xls reader acts on ([MS-XLS] 2.3). */
export const RECORD = {
  EOF: 0x000a,
  NOTE: 0x001c,
  DATEMODE: 0x0022,
  FILEPASS: 0x002f,
  CONTINUE: 0x003c,
  BOUNDSHEET: 0x0085,
  MULRK: 0x00bd,
  SST: 0x00fc,
  LABELSST: 0x00fd,
  RSTRING: 0x00d6,
  XF: 0x00e0,
  NUMBER: 0x0203,
  LABEL: 0x0204,
  BOOLERR: 0x0205,
  FORMULA: 0x0006,
  STRING: 0x0207,
  RK: 0x027e,
  FORMAT: 0x041e,
  BOF: 0x0809,
} as const;

/**
 * A record's body, with the CONTINUE records that follow it joined on: a string that runs into a
 * continuation starts it with a fresh flags byte (its characters may switch between 8 and 16 bits),
 * so the reader keeps where each continuation begins. Fields are read from `pos` onwards.
 */
export class RecordBody {
  pos: number;
  #bound = 0;

  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
    /** Offsets in `buf` where a continuation's bytes begin, ascending. */
    private readonly bounds: readonly number[] = [],
  ) {
    this.pos = start;
  }

  #need(bytes: number): void {
    if (this.pos + bytes > this.end)
      throw new Error(`a record ends ${this.pos + bytes - this.end} bytes short`);
  }

  u8(): number {
    this.#need(1);
    return this.buf[this.pos++] as number;
  }

  u16(): number {
    this.#need(2);
    const value = this.buf.readUInt16LE(this.pos);
    this.pos += 2;
    return value;
  }

  u32(): number {
    this.#need(4);
    const value = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return value;
  }

  skip(bytes: number): void {
    this.#need(bytes);
    this.pos += bytes;
  }

  /**
   * `count` characters, 16-bit when `wide` else 8-bit (Latin-1, BIFF8's "compressed" Unicode); at a
   * continuation the next byte's flags say the width of the rest ([MS-XLS] 2.5.293).
   */
  chars(count: number, wide: boolean): string {
    let text = '';
    let left = count;
    while (left > 0) {
      while ((this.bounds[this.#bound] ?? Number.POSITIVE_INFINITY) < this.pos) this.#bound++;
      if (this.bounds[this.#bound] === this.pos) {
        wide = this.u8() !== 0;
        this.#bound++;
      }
      const limit = Math.min(this.bounds[this.#bound] ?? this.end, this.end);
      const fit = Math.min(left, wide ? (limit - this.pos) >> 1 : limit - this.pos);
      if (fit <= 0) {
        // A 16-bit character astride a continuation (or the end): read it whole, or fail if cut.
        this.#need(2);
        text += String.fromCharCode(this.buf.readUInt16LE(this.pos));
        this.pos += 2;
        left--;
        continue;
      }
      const stop = this.pos + (wide ? fit * 2 : fit);
      text += this.buf.toString(wide ? 'utf16le' : 'latin1', this.pos, stop);
      this.pos = stop;
      left -= fit;
    }
    return text;
  }

  /** An XLUnicodeString's flags and characters, after its count (`cch`). */
  unicodeChars(count: number): string {
    if (count === 0) return '';
    return this.chars(count, (this.u8() & 1) !== 0);
  }
}

/**
 * Walks the records of a BIFF8 stream (the `Workbook` stream of an .xls) in order: `next()` moves
 * to the next record and sets `type`, `start` (its offset, as BOUNDSHEET positions name it), and
 * `pos`/`end` (its body). A record running past the stream's end is an error (a truncated file).
 */
export class RecordCursor {
  type = -1;
  start = 0;
  pos = 0;
  end = 0;
  #next: number;

  constructor(
    readonly buf: Buffer,
    offset = 0,
  ) {
    this.#next = offset;
  }

  next(): boolean {
    const at = this.#next;
    if (at + 4 > this.buf.length) return false;
    const length = this.buf.readUInt16LE(at + 2);
    if (at + 4 + length > this.buf.length) {
      throw new Error(
        `record 0x${this.buf.readUInt16LE(at).toString(16)} at byte ${at} runs past the end of the Workbook stream`,
      );
    }
    this.type = this.buf.readUInt16LE(at);
    this.start = at;
    this.pos = at + 4;
    this.end = this.pos + length;
    this.#next = this.end;
    return true;
  }

  /** Fails unless the current record's body holds at least `bytes` bytes (a damaged record). */
  need(bytes: number): void {
    if (this.end - this.pos < bytes) {
      throw new Error(
        `record 0x${this.type.toString(16)} at byte ${this.start} is ${this.end - this.pos} bytes, fewer than ${bytes}`,
      );
    }
  }

  /** The current record's body, joined with the CONTINUE records after it (which it consumes). */
  body(): RecordBody {
    const pieces: [number, number][] = [];
    let at = this.#next;
    while (at + 4 <= this.buf.length && this.buf.readUInt16LE(at) === RECORD.CONTINUE) {
      const end = at + 4 + this.buf.readUInt16LE(at + 2);
      if (end > this.buf.length) break;
      pieces.push([at + 4, end]);
      at = end;
    }
    if (pieces.length === 0) return new RecordBody(this.buf, this.pos, this.end);
    this.#next = at;
    const parts = [this.buf.subarray(this.pos, this.end)];
    const bounds: number[] = [];
    let length = this.end - this.pos;
    for (const [from, to] of pieces) {
      bounds.push(length);
      parts.push(this.buf.subarray(from, to));
      length += to - from;
    }
    return new RecordBody(Buffer.concat(parts, length), 0, length, bounds);
  }
}
