import { UnsupportedDocumentError } from '#shared/errors.ts';

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** Offset of the first byte that breaks UTF-8 (overlong forms and surrogates included), or -1. */
export function firstInvalidUtf8Offset(bytes: Uint8Array, from = 0): number {
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
 * True when nearly every two-byte character is in GB2312's common range (both bytes 0xA1-0xFE), as
 * Chinese text is: Latin-1 accents before ASCII letters ("João") also make valid GBK pairs, but with a
 * second byte below 0x80.
 */
function looksLikeGb2312(bytes: Uint8Array): boolean {
  let pairs = 0;
  let common = 0;
  for (let i = 0; i < bytes.length; i++) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x81) continue;
    const trail = bytes[i + 1] ?? 0;
    pairs++;
    if (lead >= 0xa1 && trail >= 0xa1) common++;
    i++;
  }
  return pairs > 0 && common >= pairs * 0.9;
}

/**
 * Decodes a table exported by a spreadsheet program (CSV, TSV): as `decodeText` when it is UTF-8 or
 * has a byte-order mark; else as GB18030 (GBK's superset, what Excel writes on Chinese Windows) when
 * every byte sequence is valid in it and it holds Chinese text. Anything else is refused as
 * `decodeText` refuses it: Latin-1 or Big5 are not guessed at.
 *
 * @example decodeTableText(gbkBytes, 'a.csv') // { text: '项目,金额...', encoding: 'gb18030' }
 */
export function decodeTableText(bytes: Uint8Array, filename?: string): { text: string; encoding: string } {
  const encoding = textEncodingOf(bytes);
  const start = startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0;
  if (encoding !== 'utf-8' || firstInvalidUtf8Offset(bytes, start) < 0) {
    return { text: decodeText(bytes, filename), encoding };
  }
  try {
    const text = new TextDecoder('gb18030', { fatal: true }).decode(bytes);
    if (CJK.test(text) && looksLikeGb2312(bytes)) return { text, encoding: 'gb18030' };
  } catch {
    // Not GB18030 either: refused below with the first byte that is not UTF-8.
  }
  return { text: decodeText(bytes, filename), encoding };
}
