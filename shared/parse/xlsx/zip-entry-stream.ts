import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { compressedEntryData, type ZipEntry } from '../zip.ts';

/**
 * One ZIP entry as a stream of UTF-8 text, inflated as it is read, so a sheet of any size is never
 * held uncompressed. Text (not bytes) because exceljs decodes each chunk on its own, which would
 * break a multi-byte character split between two chunks.
 */
export function zipEntryTextStream(bytes: Uint8Array, entry: ZipEntry): Readable {
  const compressed = compressedEntryData(bytes, entry);
  const data = Buffer.from(compressed.buffer, compressed.byteOffset, compressed.byteLength);
  const raw = Readable.from([data], { objectMode: false });
  const text = entry.method === 0 ? raw : raw.pipe(createInflateRaw());
  if (entry.method === 8) raw.on('error', (error) => text.destroy(error));
  text.setEncoding('utf8');
  return text;
}
