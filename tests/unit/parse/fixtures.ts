import { crc32, deflateRawSync } from 'node:zlib';
import type { ParseInput } from '#shared/parse/types.ts';

/** Test fixtures built in code: image headers, ZIP archives and parse inputs. */

const enc = new TextEncoder();

export function utf8(text: string): Uint8Array {
  return enc.encode(text);
}

function bytesOf(...parts: (number[] | Uint8Array)[]): Uint8Array {
  const out: number[] = [];
  for (const part of parts) out.push(...part);
  return new Uint8Array(out);
}

function u32be(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function u16le(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff];
}

function u32le(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
}

/** A PNG signature and IHDR chunk (no pixel data: only the header matters here). */
export function pngBytes(width: number, height: number): Uint8Array {
  return bytesOf(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    u32be(13),
    [...utf8('IHDR')],
    u32be(width),
    u32be(height),
    [8, 6, 0, 0, 0],
    u32be(0),
  );
}

/** SOI, an APP0 segment, then SOF0 with the dimensions. */
export function jpegBytes(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...utf8('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof0 = [0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3];
  return bytesOf([0xff, 0xd8], app0, sof0, new Array(9).fill(0), [0xff, 0xd9]);
}

export function gifBytes(width: number, height: number): Uint8Array {
  return bytesOf([...utf8('GIF89a')], u16le(width), u16le(height), [0, 0, 0]);
}

/** A lossless (VP8L) WebP header. */
export function webpBytes(width: number, height: number): Uint8Array {
  const w = width - 1;
  const h = height - 1;
  const bits = [w & 0xff, ((w >> 8) & 0x3f) | ((h & 0x03) << 6), (h >> 2) & 0xff, (h >> 10) & 0x0f];
  return bytesOf([...utf8('RIFF')], u32le(26), [...utf8('WEBPVP8L')], u32le(14), [0x2f], bits, [0, 0, 0, 0]);
}

export function bmpBytes(width: number, height: number): Uint8Array {
  return bytesOf(
    [...utf8('BM')],
    u32le(54),
    [0, 0, 0, 0],
    u32le(54),
    u32le(40),
    u32le(width),
    u32le(-height),
  );
}

export interface ZipFixtureEntry {
  name: string;
  data: Uint8Array | string;
  deflate?: boolean;
}

/** A real ZIP archive (local headers, central directory, end record), stored or deflated. */
export function zipBytes(entries: ZipFixtureEntry[]): Uint8Array {
  const local: number[] = [];
  const central: number[] = [];
  for (const entry of entries) {
    const raw = typeof entry.data === 'string' ? utf8(entry.data) : entry.data;
    const data = entry.deflate ? new Uint8Array(deflateRawSync(raw)) : raw;
    const name = utf8(entry.name);
    const method = entry.deflate ? 8 : 0;
    const crc = crc32(raw);
    const offset = local.length;
    const common = [...u16le(method), 0, 0, 0, 0, ...u32le(crc), ...u32le(data.length), ...u32le(raw.length)];
    local.push(
      ...u32le(0x04034b50),
      20,
      0,
      ...u16le(0x0800),
      ...common,
      ...u16le(name.length),
      0,
      0,
      ...name,
      ...data,
    );
    central.push(...u32le(0x02014b50), 20, 0, 20, 0, ...u16le(0x0800), ...common, ...u16le(name.length));
    central.push(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...u32le(offset), ...name);
  }
  const end = [
    ...u32le(0x06054b50),
    0,
    0,
    0,
    0,
    ...u16le(entries.length),
    ...u16le(entries.length),
    ...u32le(central.length),
    ...u32le(local.length),
    0,
    0,
  ];
  return new Uint8Array([...local, ...central, ...end]);
}

/** A parse input whose folder holds `files` (paths relative to the document). */
export function markdownInput(
  source: string,
  files: Record<string, Uint8Array> = {},
  filename = 'doc.md',
): ParseInput {
  return {
    bytes: utf8(source),
    filename,
    readRelative: async (path) => files[path],
  };
}

/** Text in GBK (Node's TextEncoder writes only UTF-8). */
export function encodeGbk(text: string): Uint8Array {
  return encodeDoubleByte(text, 'gbk');
}

/**
 * Text in a double-byte legacy encoding (GBK, Big5) Node's TextEncoder cannot write: a table built by
 * decoding every pair once.
 */
export function encodeDoubleByte(text: string, encoding: 'gbk' | 'big5'): Uint8Array {
  const table = new Map<string, number[]>();
  const decoder = new TextDecoder(encoding);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      const char = decoder.decode(new Uint8Array([lead, trail]));
      if (char.length === 1 && !table.has(char)) table.set(char, [lead, trail]);
    }
  }
  const out: number[] = [];
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x80) out.push(code);
    else out.push(...(table.get(char) ?? [0x3f]));
  }
  return new Uint8Array(out);
}
