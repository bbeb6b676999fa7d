import { UnsupportedDocumentError } from '#shared/errors.ts';
import { readZipDirectory } from '../zip.ts';

/** Bounds on an OOXML archive, checked on its central directory before anything is inflated. */
export interface ArchiveLimits {
  maxEntries: number;
  maxUncompressedBytes: number;
  /** Uncompressed / compressed size above which a large entry is taken for a zip bomb. */
  maxRatio: number;
  /** Entries smaller than this are exempt from the ratio check (tiny XML parts compress very well). */
  ratioFloorBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 10_000,
  maxUncompressedBytes: 256 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};

const MB = 1024 * 1024;

/**
 * Refuses archives whose directory declares too many entries, too many uncompressed bytes or a
 * compression ratio only a zip bomb has, so mammoth never inflates them.
 */
export function checkArchiveLimits(
  bytes: Uint8Array,
  filename: string,
  limits = DEFAULT_ARCHIVE_LIMITS,
): void {
  const entries = readZipDirectory(bytes);
  const refuse = (reason: string) =>
    new UnsupportedDocumentError(`${filename} is not a readable Word document: ${reason}`);
  if (entries.length > limits.maxEntries) {
    throw refuse(`the archive has ${entries.length} entries (at most ${limits.maxEntries} are read)`);
  }
  let total = 0;
  for (const entry of entries) {
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize > limits.ratioFloorBytes && ratio > limits.maxRatio) {
      throw refuse(
        `${entry.name} expands ${Math.round(ratio)} times (${Math.round(entry.uncompressedSize / MB)} MB), which only a zip bomb does`,
      );
    }
  }
  if (total > limits.maxUncompressedBytes) {
    throw refuse(
      `the archive expands to ${Math.round(total / MB)} MB (at most ${Math.round(limits.maxUncompressedBytes / MB)} MB)`,
    );
  }
}
