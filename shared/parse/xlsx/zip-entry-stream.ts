import { pipeline, Readable, Transform } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { compressedEntryData, DamagedZipError, type ZipEntry } from '../zip.ts';

/** Passes bytes through until more than the entry's declared size has gone by. */
function declaredSizeGuard(entry: ZipEntry): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > entry.uncompressedSize) {
        done(
          new DamagedZipError(`${entry.name} inflates past the ${entry.uncompressedSize} bytes it declares`),
        );
        return;
      }
      done(null, chunk);
    },
  });
}

/**
 * One ZIP entry as a stream of UTF-8 text, inflated as it is read, so a sheet of any size is never
 * held uncompressed, and never past the size the archive declares for it (the archive limits are
 * checked on declared sizes, which a zip bomb can lie about). Text (not bytes) because exceljs
 * decodes each chunk on its own, which would break a multi-byte character split between two chunks.
 */
export function zipEntryTextStream(bytes: Uint8Array, entry: ZipEntry): Readable {
  const compressed = compressedEntryData(bytes, entry);
  const data = Buffer.from(compressed.buffer, compressed.byteOffset, compressed.byteLength);
  const raw = Readable.from([data], { objectMode: false });
  const text =
    entry.method === 0
      ? raw
      : pipeline(raw, createInflateRaw(), declaredSizeGuard(entry), () => {
          // Errors reach the reader through the last stream, which pipeline destroys with them.
        });
  text.setEncoding('utf8');
  return text;
}
