import { UnsupportedDocumentError } from '#shared/errors.ts';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './limits.ts';
import type { ZipEntry } from './zip.ts';

/** Entries smaller than this are exempt from the ratio check (tiny XML parts compress very well). */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const MB = 1024 * 1024;

/**
 * Refuses an Office archive whose central directory (`entries`, from `readZipDirectory`) declares
 * too many entries, too many uncompressed bytes or a compression ratio only a zip bomb has, before
 * anything is inflated. `kind` names the format in the reason ("report.docx is not a readable Word
 * document: ...").
 *
 * @example checkArchiveLimits(readZipDirectory(bytes), 'deck.pptx', 'PowerPoint presentation', input.limits)
 */
export function checkArchiveLimits(
  entries: readonly ZipEntry[],
  filename: string,
  kind: string,
  limits: ParseLimits = DEFAULT_PARSE_LIMITS,
): void {
  const refuse = (reason: string) =>
    new UnsupportedDocumentError(`${filename} is not a readable ${kind}: ${reason}`);
  if (entries.length > limits.maxZipEntries) {
    throw refuse(
      `the archive has ${entries.length} entries (at most ${limits.maxZipEntries} are read; limits.maxZipEntries)`,
    );
  }
  let total = 0;
  for (const entry of entries) {
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize > RATIO_FLOOR_BYTES && ratio > limits.maxCompressionRatio) {
      throw refuse(
        `${entry.name} expands ${Math.round(ratio)} times (${Math.round(entry.uncompressedSize / MB)} MB), which only a zip bomb does`,
      );
    }
  }
  if (total > limits.maxUncompressedBytes) {
    throw refuse(
      `the archive expands to ${Math.round(total / MB)} MB (at most ${Math.round(limits.maxUncompressedBytes / MB)} MB; limits.maxUncompressedBytes)`,
    );
  }
}
