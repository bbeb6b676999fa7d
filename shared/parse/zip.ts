import { inflateRawSync } from 'node:zlib';
import { UnsupportedDocumentError } from '#shared/errors.ts';

/** One entry of a ZIP central directory. Sizes are as declared, which a zip bomb can lie about. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes plus a comment of at most 65,535 bytes. */
const MAX_EOCD_SEARCH = 22 + 0xffff;

/** A ZIP archive that cannot be read; `detail` says what was wrong (`no end of central directory`). */
export class DamagedZipError extends UnsupportedDocumentError {
  constructor(
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(`the ZIP archive is damaged (${detail})`, options);
  }
}

function damaged(detail: string): DamagedZipError {
  return new DamagedZipError(detail);
}

function findEndOfCentralDirectory(view: DataView): number {
  const last = view.byteLength - 22;
  const first = Math.max(0, view.byteLength - MAX_EOCD_SEARCH);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw damaged('no end of central directory');
}

function bigToNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw damaged('ZIP64 size out of range');
  return Number(value);
}

function directoryBounds(view: DataView): { offset: number; size: number; count: number } {
  const eocd = findEndOfCentralDirectory(view);
  let count = view.getUint16(eocd + 10, true);
  let size = view.getUint32(eocd + 12, true);
  let offset = view.getUint32(eocd + 16, true);
  const locator = eocd - 20;
  if ((count === 0xffff || size === 0xffffffff || offset === 0xffffffff) && locator >= 0) {
    if (view.getUint32(locator, true) === ZIP64_LOCATOR) {
      const record = bigToNumber(view.getBigUint64(locator + 8, true));
      if (record + 56 > view.byteLength || view.getUint32(record, true) !== ZIP64_EOCD) {
        throw damaged('bad ZIP64 end record');
      }
      count = bigToNumber(view.getBigUint64(record + 32, true));
      size = bigToNumber(view.getBigUint64(record + 40, true));
      offset = bigToNumber(view.getBigUint64(record + 48, true));
    }
  }
  if (offset + size > view.byteLength) throw damaged('central directory outside the file');
  return { offset, size, count };
}

/**
 * Lists a ZIP archive's entries from its central directory alone: no decompression, work bounded by
 * the directory's size, so it is safe on untrusted uploads (zip bombs included).
 *
 * @example readZipDirectory(docxBytes).map((e) => e.name) // ['[Content_Types].xml', 'word/document.xml', ...]
 */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 22) throw damaged('too short');
  const { offset, size, count } = directoryBounds(view);
  const end = offset + size;
  const entries: ZipEntry[] = [];
  const utf8 = new TextDecoder('utf-8');
  const latin1 = new TextDecoder('latin1');
  let at = offset;
  while (entries.length < count && at + 46 <= end) {
    if (view.getUint32(at, true) !== CENTRAL_ENTRY) throw damaged(`bad directory entry at offset ${at}`);
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const rawName = bytes.subarray(at + 46, at + 46 + nameLength);
    entries.push({
      // Bit 11 marks UTF-8 names; older tools write CP437, of which ASCII part names are a subset.
      name: (flags & 0x0800 ? utf8 : latin1).decode(rawName),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      uncompressedSize: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The raw (still compressed) bytes of one entry, after checking its local header and that its
 * compression method is stored (0) or deflate (8).
 */
export function compressedEntryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_HEADER) {
    throw damaged(`bad local header for ${entry.name}`);
  }
  if (entry.method !== 0 && entry.method !== 8) {
    throw damaged(`${entry.name} uses unsupported compression method ${entry.method}`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  return bytes.subarray(start, start + entry.compressedSize);
}

/**
 * Reads one entry's bytes (stored or deflated), refusing to produce more than `maxBytes`, whatever
 * the directory claims.
 */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry, maxBytes: number): Uint8Array {
  const data = compressedEntryData(bytes, entry);
  if (entry.method === 0) {
    if (data.length > maxBytes) throw damaged(`${entry.name} is larger than ${maxBytes} bytes`);
    return data;
  }
  try {
    return inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch (error) {
    throw new DamagedZipError(`${entry.name} could not be inflated`, {
      cause: error,
    });
  }
}
