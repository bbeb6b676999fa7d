import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import type { ZipEntry } from '../zip.ts';

const LOCAL_HEADER = 0x04034b50;

/**
 * One ZIP entry as a stream of UTF-8 text, inflated as it is read, so a sheet of any size is never
 * held uncompressed. Text (not bytes) because exceljs decodes each chunk on its own, which would
 * break a multi-byte character split between two chunks.
 */
export function zipEntryTextStream(bytes: Uint8Array, entry: ZipEntry): Readable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_HEADER) {
    throw new UnsupportedDocumentError(`the ZIP archive is damaged (bad local header for ${entry.name})`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = Buffer.from(
    bytes.buffer,
    bytes.byteOffset + start,
    Math.min(entry.compressedSize, bytes.length - start),
  );
  if (entry.method !== 0 && entry.method !== 8) {
    throw new UnsupportedDocumentError(
      `the ZIP archive is damaged (${entry.name} uses unsupported compression method ${entry.method})`,
    );
  }
  const raw = Readable.from([data], { objectMode: false });
  const text = entry.method === 0 ? raw : raw.pipe(createInflateRaw());
  if (entry.method === 8) raw.on('error', (error) => text.destroy(error));
  text.setEncoding('utf8');
  return text;
}
