import { isUtf8 } from 'node:buffer';
import { UnsupportedDocumentError } from '#shared/errors.ts';

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Offset of the first byte that breaks UTF-8 (overlong forms and surrogates included), or -1. Valid
 * text is told by Node's native check; only invalid text is walked to find the offset.
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array, from = 0): number {
  if (isUtf8(bytes.subarray(from))) return -1;
  let i = from;
  while (i < bytes.length) {
    const b0 = bytes[i] ?? 0;
    if (b0 < 0x80) {
      i += 1;
      continue;
    }
    let length: number;
    let min: number;
    let max = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      length = 2;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      length = 3;
      min = b0 === 0xe0 ? 0xa0 : 0x80;
      if (b0 === 0xed) max = 0x9f; // UTF-16 surrogates are not characters
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      length = 4;
      min = b0 === 0xf0 ? 0x90 : 0x80;
      if (b0 === 0xf4) max = 0x8f; // above U+10FFFF
    } else {
      return i;
    }
    for (let k = 1; k < length; k++) {
      const b = bytes[i + k];
      if (b === undefined) return i;
      const lo = k === 1 ? min : 0x80;
      const hi = k === 1 ? max : 0xbf;
      if (b < lo || b > hi) return i;
    }
    i += length;
  }
  return -1;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

function who(filename: string | undefined): string {
  return filename ? filename : 'the file';
}

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', filename?: string): string {
  const body = bytes.subarray(2);
  if (body.length % 2 !== 0) {
    throw new UnsupportedDocumentError(`${who(filename)} is not valid UTF-16 text (odd number of bytes)`);
  }
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
  } catch (error) {
    throw new UnsupportedDocumentError(`${who(filename)} is not valid UTF-16 text (unpaired surrogate)`, {
      cause: error,
    });
  }
}

/** The encoding a byte-order mark announces, or utf-8 when there is none. */
export function textEncodingOf(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (startsWith(bytes, [0xff, 0xfe])) return 'utf-16le';
  if (startsWith(bytes, [0xfe, 0xff])) return 'utf-16be';
  return 'utf-8';
}

/**
 * Decodes document text strictly: UTF-8 (a BOM is dropped) or UTF-16 announced by its BOM. Anything
 * else (Latin-1, GBK, truncated sequences) is refused with the offset of the first bad byte, rather
 * than guessed at, so that a wrong encoding never turns into silently garbled text.
 *
 * @example decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])) // 'hi'
 */
export function decodeText(bytes: Uint8Array, filename?: string): string {
  const encoding = textEncodingOf(bytes);
  if (encoding !== 'utf-8') return decodeUtf16(bytes, encoding, filename);
  const start = startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0;
  const invalid = firstInvalidUtf8Offset(bytes, start);
  if (invalid >= 0) {
    throw new UnsupportedDocumentError(
      `${who(filename)} is not valid UTF-8 text (invalid byte at offset ${invalid})`,
    );
  }
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(start));
}

/** CJK ideographs and full-width punctuation: what GBK text is made of. */
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

/**
 * The share of two-byte characters (lead byte 0x81 or above) whose bytes pass `common`, or 0 when
 * there are none.
 */
function commonPairShare(bytes: Uint8Array, common: (lead: number, trail: number) => boolean): number {
  let pairs = 0;
  let hits = 0;
  for (let i = 0; i < bytes.length; i++) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x81) continue;
    pairs++;
    if (common(lead, bytes[i + 1] ?? 0)) hits++;
    i++;
  }
  return pairs > 0 ? hits / pairs : 0;
}

/**
 * The legacy Chinese encodings a table is tried in, in order, each with what its text looks like:
 * nearly every pair in GB2312's common range (both bytes 0xA1-0xFE; Latin-1 accents before ASCII
 * letters, "João", also make valid pairs, but with a trail byte below 0x80), else nearly every pair
 * a Big5 symbol or frequently used character (lead 0xA1-0xC6; Big5's trail bytes include 0x40-0x7E,
 * which keeps Big5 text out of the GB2312 test, and Latin-1 accents are leads 0xE0 and above).
 */
const CHINESE_ENCODINGS = [
  { encoding: 'gb18030', common: (lead: number, trail: number) => lead >= 0xa1 && trail >= 0xa1 },
  { encoding: 'big5', common: (lead: number) => lead >= 0xa1 && lead <= 0xc6 },
] as const;

/** A table's legacy encoding: what Excel on Chinese Windows writes, Simplified or Traditional. */
export type TableEncoding =
  | 'utf-8'
  | 'utf-16le'
  | 'utf-16be'
  | (typeof CHINESE_ENCODINGS)[number]['encoding'];

/**
 * Decodes a table exported by a spreadsheet program (CSV, TSV): as `decodeText` when it is UTF-8 or
 * has a byte-order mark; else as GB18030 (GBK's superset, what Excel writes on Simplified Chinese
 * Windows) or Big5 (Traditional Chinese: Taiwan, Hong Kong) when every byte sequence is valid in it,
 * it holds Chinese text and its character pairs look like that encoding's. Anything else is refused
 * as `decodeText` refuses it: Latin-1 is not guessed at.
 *
 * @example decodeTableText(gbkBytes, 'a.csv') // { text: '项目,金额...', encoding: 'gb18030' }
 */
export function decodeTableText(
  bytes: Uint8Array,
  filename?: string,
): { text: string; encoding: TableEncoding } {
  const encoding = textEncodingOf(bytes);
  const start = startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0;
  if (encoding !== 'utf-8' || firstInvalidUtf8Offset(bytes, start) < 0) {
    return { text: decodeText(bytes, filename), encoding };
  }
  for (const candidate of CHINESE_ENCODINGS) {
    if (commonPairShare(bytes, candidate.common) < 0.9) continue;
    try {
      const text = new TextDecoder(candidate.encoding, { fatal: true }).decode(bytes);
      if (CJK.test(text)) return { text, encoding: candidate.encoding };
    } catch {
      // Not valid in this encoding: the next is tried, else refused below.
    }
  }
  return { text: decodeText(bytes, filename), encoding };
}
