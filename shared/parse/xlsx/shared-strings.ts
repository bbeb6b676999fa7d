import type { Readable } from 'node:stream';
import { UnsupportedDocumentError } from '#shared/errors.ts';

/**
 * Bounds on a workbook's shared strings, which are held in memory while the sheets are read. A real
 * 50 MB workbook of unique strings has ~2 million; a crafted one could declare hundreds of millions
 * of tiny strings inside the archive limits and exhaust the process's memory.
 */
export const MAX_SHARED_STRINGS = 5_000_000;
export const MAX_SHARED_STRING_CHARS = 256 * 1024 * 1024;

type SharedString = string | { richText: { text: string }[] } | null;

/** exceljs's shared-strings parser, in its `emit` mode (one `{index, text}` per string). */
export interface SharedStringsReader {
  options: Record<string, unknown>;
  _parseSharedStrings(stream: Readable): AsyncIterable<unknown>;
}

function lengthOf(value: SharedString): number {
  if (typeof value === 'string') return value.length;
  if (value && 'richText' in value) return value.richText.reduce((n, run) => n + (run.text?.length ?? 0), 0);
  return 0;
}

/**
 * Reads the shared strings part into an array, refusing the workbook past `MAX_SHARED_STRINGS`
 * strings or `MAX_SHARED_STRING_CHARS` characters in all (`bounds` for tests).
 */
export async function readSharedStrings(
  reader: SharedStringsReader,
  stream: Readable,
  filename: string,
  bounds = { maxStrings: MAX_SHARED_STRINGS, maxChars: MAX_SHARED_STRING_CHARS },
): Promise<SharedString[]> {
  const strings: SharedString[] = [];
  let chars = 0;
  const mode = reader.options.sharedStrings;
  reader.options.sharedStrings = 'emit';
  try {
    for await (const item of reader._parseSharedStrings(stream)) {
      const text = (item as { text: SharedString }).text;
      chars += lengthOf(text);
      strings.push(text);
      if (strings.length > bounds.maxStrings || chars > bounds.maxChars) {
        throw new UnsupportedDocumentError(
          `${filename} has more shared strings than can be held in memory (at most ${bounds.maxStrings.toLocaleString('en-US')} strings and ${bounds.maxChars.toLocaleString('en-US')} characters)`,
        );
      }
    }
  } finally {
    reader.options.sharedStrings = mode;
  }
  return strings;
}
