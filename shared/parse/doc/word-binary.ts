import { UnsupportedDocumentError } from '#shared/errors.ts';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { damagedFile } from '../damaged.ts';

/**
 * What word-extractor does not give: which paragraphs of a Word 97-2003 body are headings. Read from
 * the binary records ([MS-DOC]): the FIB locates the piece table (text positions), the paragraph
 * property pages (each paragraph's style index and outline level) and the style sheet (each style's
 * built-in identifier and name). Only the body's heading paragraphs are returned, with their text.
 */
export interface WordHeading {
  level: number;
  text: string;
}

/** The FIB starts with wIdent: 0xA5EC for Word 97 and later, 0xA5DC for Word 6 and 95. */
const FIB_IDENTS = new Set([0xa5ec, 0xa5dc]);
const FIB_FLAGS = 0x0a;
const F_ENCRYPTED = 0x0100;
const F_WHICH_TABLE = 0x0200;
/** Built-in style identifiers 1-9 are "heading 1" to "heading 9" in every language. */
const STI_HEADING_MAX = 9;
const SPRM_OUTLINE_LEVEL = 0x2640;
const CELL_MARK = 0x07;
/** A sprm's operand size by its spra (the code's top 3 bits); -1: a length byte comes first. */
const OPERAND_SIZES = [1, 1, 2, 4, 2, 2, -1, 3];
const HEADING_NAME = /^(?:heading|标题|標題|überschrift|titre)\s*([1-9])$/i;

export interface Piece {
  cpStart: number;
  cpEnd: number;
  fc: number;
  compressed: boolean;
}

export interface Fib {
  table: Uint8Array;
  ccpText: number;
  fcLcb: (index: number) => { fc: number; lcb: number };
}

/** Built once: a decoder costs more to make than a style name or a piece of text takes to decode. */
const UTF16LE = new TextDecoder('utf-16le');
const CP1252 = new TextDecoder('windows-1252');

export function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Refuses a damaged FIB (its flags cannot be trusted), then an encrypted or obfuscated document, with
 * that reason, before any text is read.
 */
export function checkNotEncrypted(word: Uint8Array, filename: string): void {
  if (word.length < 12 || !FIB_IDENTS.has(view(word).getUint16(0, true))) {
    throw damagedFile(filename, 'its Word 97-2003 header (FIB) is missing or corrupted');
  }
  if (view(word).getUint16(FIB_FLAGS, true) & F_ENCRYPTED) {
    throw new UnsupportedDocumentError(
      `${filename} is password-protected (an encrypted Word 97-2003 document); save it without a password`,
    );
  }
}

export function readFib(word: Uint8Array, streams: (name: string) => Uint8Array | undefined): Fib {
  const v = view(word);
  const tableName = v.getUint16(FIB_FLAGS, true) & F_WHICH_TABLE ? '1Table' : '0Table';
  const table = streams(tableName);
  if (!table) throw new Error(`the ${tableName} stream is missing`);
  let at = 32;
  const csw = v.getUint16(at, true);
  at += 2 + csw * 2;
  const cslw = v.getUint16(at, true);
  const lw = at + 2;
  const ccpText = v.getInt32(lw + 3 * 4, true);
  at = lw + cslw * 4;
  const rgFcLcb = at + 2;
  return {
    table,
    ccpText,
    fcLcb: (index) => ({
      fc: v.getUint32(rgFcLcb + index * 8, true),
      lcb: v.getUint32(rgFcLcb + index * 8 + 4, true),
    }),
  };
}

export function readPieces(fib: Fib): Piece[] {
  const { fc, lcb } = fib.fcLcb(33);
  const t = view(fib.table);
  let at = fc;
  const end = fc + lcb;
  while (at < end && fib.table[at] === 1) at += 3 + t.getUint16(at + 1, true);
  if (fib.table[at] !== 2) throw new Error('no piece table');
  const size = t.getUint32(at + 1, true);
  const plc = at + 5;
  const count = (size - 4) / 12;
  const pieces: Piece[] = [];
  for (let i = 0; i < count; i++) {
    const raw = t.getUint32(plc + (count + 1) * 4 + i * 8 + 2, true);
    const compressed = (raw & 0x40000000) !== 0;
    pieces.push({
      cpStart: t.getUint32(plc + i * 4, true),
      cpEnd: t.getUint32(plc + (i + 1) * 4, true),
      fc: compressed ? (raw & ~0x40000000) / 2 : raw,
      compressed,
    });
  }
  return pieces;
}

/** Each style's heading level (by built-in identifier or by name), by style index. */
function headingStyles(fib: Fib): Map<number, number> {
  const { fc, lcb } = fib.fcLcb(1);
  const levels = new Map<number, number>();
  if (lcb === 0) return levels;
  const t = view(fib.table);
  const cbStshi = t.getUint16(fc, true);
  const cstd = t.getUint16(fc + 2, true);
  const cbBase = t.getUint16(fc + 4, true);
  let at = fc + 2 + cbStshi;
  for (let istd = 0; istd < cstd && at + 2 <= fc + lcb; istd++) {
    const cbStd = t.getUint16(at, true);
    const std = at + 2;
    at = std + cbStd;
    if (cbStd === 0) continue;
    const sti = t.getUint16(std, true) & 0x0fff;
    if (sti >= 1 && sti <= STI_HEADING_MAX) {
      levels.set(istd, sti);
      continue;
    }
    const nameAt = std + cbBase;
    if (nameAt + 2 > std + cbStd) continue;
    const length = t.getUint16(nameAt, true);
    const name = UTF16LE.decode(fib.table.subarray(nameAt + 2, nameAt + 2 + length * 2));
    const match = HEADING_NAME.exec(name.trim());
    if (match?.[1]) levels.set(istd, Number(match[1]));
  }
  return levels;
}

/**
 * Calls `visit` with each property modifier (sprm) of a grpprl between `from` and `to`: its code
 * and its operand's offset; stops early when `visit` returns true.
 */
export function eachSprm(
  grpprl: DataView,
  from: number,
  to: number,
  visit: (sprm: number, at: number) => boolean | undefined,
): void {
  let at = from;
  while (at + 2 <= to) {
    const sprm = grpprl.getUint16(at, true);
    at += 2;
    const size = OPERAND_SIZES[sprm >> 13] ?? 1;
    if (visit(sprm, at)) return;
    at += size >= 0 ? size : 1 + grpprl.getUint8(at);
  }
}

/** The outline level a paragraph's own properties set (sprmPOutLvl 0-8), if any. */
function outlineLevel(grpprl: DataView, from: number, to: number): number | undefined {
  let level: number | undefined;
  eachSprm(grpprl, from, to, (sprm, at) => {
    if (sprm !== SPRM_OUTLINE_LEVEL) return false;
    const value = grpprl.getUint8(at);
    level = value <= 8 ? value + 1 : undefined;
    return true;
  });
  return level;
}

/** A run of text with the same properties, as a formatted disk page (FKP) lists it. */
export interface FkpRun {
  fcStart: number;
  fcEnd: number;
  /** Where its properties' grpprl lies in the WordDocument stream (for paragraphs, after the style index). */
  from: number;
  to: number;
}

/**
 * The runs of the paragraph (PlcfBtePapx) or character (PlcfBteChpx) property pages: each page is
 * 512 bytes of the WordDocument stream holding run boundaries and each run's properties.
 */
export function* fkpRuns(word: Uint8Array, fib: Fib, kind: 'paragraph' | 'character'): Generator<FkpRun> {
  const { fc, lcb } = fib.fcLcb(kind === 'paragraph' ? 13 : 12);
  const t = view(fib.table);
  const w = view(word);
  const count = (lcb - 4) / 8;
  const entry = kind === 'paragraph' ? 13 : 1;
  for (let i = 0; i < count; i++) {
    const page = (t.getUint32(fc + (count + 1) * 4 + i * 4, true) & 0x3fffff) * 512;
    if (page + 512 > word.length) continue;
    const crun = word[page + 511] ?? 0;
    for (let j = 0; j < crun; j++) {
      const offset = (word[page + (crun + 1) * 4 + j * entry] ?? 0) * 2;
      if (offset === 0) continue;
      const fcStart = w.getUint32(page + j * 4, true);
      const fcEnd = w.getUint32(page + (j + 1) * 4, true);
      const cb = word[page + offset] ?? 0;
      if (kind === 'character') {
        yield { fcStart, fcEnd, from: page + offset + 1, to: Math.min(page + offset + 1 + cb, page + 511) };
        continue;
      }
      const start = page + offset + (cb === 0 ? 2 : 1);
      const length = cb === 0 ? 2 * (word[page + offset + 1] ?? 0) : 2 * cb - 1;
      yield { fcStart, fcEnd, from: start, to: Math.min(start + length, page + 511) };
    }
  }
}

/** The character position just after a paragraph whose text ends at file offset `fcEnd` (exclusive). */
export function cpAfter(pieces: Piece[], fcEnd: number): number | undefined {
  for (const piece of pieces) {
    const width = piece.compressed ? 1 : 2;
    const pieceEnd = piece.fc + (piece.cpEnd - piece.cpStart) * width;
    if (fcEnd > piece.fc && fcEnd <= pieceEnd) return piece.cpStart + Math.ceil((fcEnd - piece.fc) / width);
  }
  return undefined;
}

export function textOf(word: Uint8Array, pieces: Piece[], cpStart: number, cpEnd: number): string {
  let out = '';
  for (const piece of pieces) {
    const from = Math.max(cpStart, piece.cpStart);
    const to = Math.min(cpEnd, piece.cpEnd);
    if (from >= to) continue;
    const width = piece.compressed ? 1 : 2;
    const start = piece.fc + (from - piece.cpStart) * width;
    const bytes = word.subarray(start, start + (to - from) * width);
    out += (piece.compressed ? CP1252 : UTF16LE).decode(bytes);
  }
  return out;
}

const FIELD_BEGIN = 0x13;
const FIELD_SEPARATOR = 0x14;
const FIELD_END = 0x15;

/** A heading's text as word-extractor gives it: fields reduced to their result, marks made spaces. */
function cleanHeading(text: string): string {
  const fields: ('code' | 'result')[] = [];
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code === FIELD_BEGIN) fields.push('code');
    else if (code === FIELD_SEPARATOR) fields[fields.length - 1] = 'result';
    else if (code === FIELD_END) fields.pop();
    else if (fields.at(-1) !== 'code') out += code < 0x20 ? ' ' : char;
  }
  return collapseSpaces(out);
}

/** A Word 97-2003 body opened for reading: its FIB, piece table and raw text (character positions 0 to ccpText). */
export interface WordBody {
  word: Uint8Array;
  fib: Fib;
  pieces: Piece[];
  text: string;
}

/** Opens the body of a WordDocument stream (its table stream found through `streams`). */
export function openWordBody(word: Uint8Array, streams: (name: string) => Uint8Array | undefined): WordBody {
  const fib = readFib(word, streams);
  const pieces = readPieces(fib);
  return { word, fib, pieces, text: textOf(word, pieces, 0, fib.ccpText) };
}

/** sprmPFTtp: the paragraph is a table row's end mark. */
const SPRM_TABLE_ROW_END = 0x2417;

/** The paragraphs' ends with their style index and properties, in stream order, inside the body. */
function* paragraphs(body: WordBody): Generator<{ cpEnd: number; istd: number; run: FkpRun }> {
  const w = view(body.word);
  for (const run of fkpRuns(body.word, body.fib, 'paragraph')) {
    const cpEnd = cpAfter(body.pieces, run.fcEnd);
    if (cpEnd === undefined || cpEnd > body.fib.ccpText || run.from + 2 > run.to) continue;
    yield { cpEnd, istd: w.getUint16(run.from, true), run };
  }
}

/** The character positions of the table rows' end marks (text extraction ends a row's line there). */
export function tableRowEnds(body: WordBody): number[] {
  const w = view(body.word);
  const ends: number[] = [];
  for (const { cpEnd, run } of paragraphs(body)) {
    eachSprm(w, run.from + 2, run.to, (sprm, at) => {
      if (sprm === SPRM_TABLE_ROW_END && w.getUint8(at) === 1) ends.push(cpEnd - 1);
      return false;
    });
  }
  return ends.sort((a, b) => a - b);
}

/**
 * The heading paragraphs of a Word 97-2003 body, in reading order: paragraphs whose style is a
 * built-in heading (or named "Heading N" / "标题 N"), or whose own outline level is set.
 */
export function readWordHeadings(body: WordBody): WordHeading[] {
  const styles = headingStyles(body.fib);
  const w = view(body.word);
  const marks: { cpEnd: number; level: number }[] = [];
  for (const { cpEnd, istd, run } of paragraphs(body)) {
    const level = outlineLevel(w, run.from + 2, run.to) ?? styles.get(istd);
    if (level !== undefined) marks.push({ cpEnd, level });
  }
  marks.sort((a, b) => a.cpEnd - b.cpEnd);
  // A paragraph starts after the previous paragraph mark; find it by scanning back for one.
  const headings: WordHeading[] = [];
  for (const mark of marks) {
    let before = mark.cpEnd - 2;
    while (before >= 0 && body.text[before] !== '\r' && body.text.charCodeAt(before) !== CELL_MARK) before--;
    const text = cleanHeading(body.text.slice(before + 1, mark.cpEnd - 1));
    if (text) headings.push({ level: mark.level, text });
  }
  return headings;
}
