import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { compressedEntryData, type ZipEntry } from './zip.ts';

/**
 * Entries declared at most this size are inflated at once into a buffer of their declared size:
 * faster than a stream, which hands every chunk to the thread pool and back. Larger ones stream.
 */
const SYNC_INFLATE_BYTES = 4 * 1024 * 1024;

/** Inflates `data` into at most `limit` bytes, kept nowhere: false when it holds more. */
function inflatesWithinSync(data: Uint8Array, limit: number): boolean {
  try {
    inflateRawSync(data, { maxOutputLength: Math.max(1, limit) });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return false;
    throw error;
  }
}

/** Inflates `data` without keeping it, stopping as soon as it passes `limit` bytes. */
function inflatesWithin(data: Uint8Array, limit: number): Promise<boolean> {
  if (limit <= SYNC_INFLATE_BYTES) return Promise.resolve(inflatesWithinSync(data, limit));
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw();
    let total = 0;
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        inflate.destroy();
        resolve(false);
      }
    });
    inflate.on('end', () => resolve(true));
    inflate.on('error', reject);
    inflate.end(data);
  });
}

/**
 * The first deflated entry that inflates to more bytes than the central directory declares, if any.
 * The archive limits trust the declared sizes; a reader that does not bound its own output (JSZip,
 * under mammoth) would inflate a lying entry to any size, so its entries are checked first, in a
 * stream that keeps nothing and stops at the declared size.
 *
 * @example await entryBeyondDeclaredSize(bytes, readZipDirectory(bytes)) // undefined for an honest archive
 */
export async function entryBeyondDeclaredSize(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
): Promise<ZipEntry | undefined> {
  for (const entry of entries) {
    if (entry.method !== 8) continue;
    if (!(await inflatesWithin(compressedEntryData(bytes, entry), entry.uncompressedSize))) return entry;
  }
  return undefined;
}
