import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { DAMAGED_ADVICE, isEngineError } from './damaged.ts';
import { withDeadline } from './deadline.ts';
import { describeType, readableTypesSentence } from './file-types.ts';
import { DEFAULT_PARSE_LIMITS } from './limits.ts';
import { nameMismatch } from './name-mismatch.ts';
import { checkOoxml } from './ooxml-guard.ts';
import { parsers } from './registry.ts';
import type { FileType, ParsedDocument, ParseInput } from './types.ts';

/** An empty tree is a valid parse (a blank template), said in a warning rather than left silent. */
function emptyNote(filename: string, parsed: ParsedDocument): string | undefined {
  if (parsed.children.length > 0 || parsed.images.length > 0) return undefined;
  return `${filename} has no text, table or image to index (an empty document)`;
}

/**
 * Parses a document of a detected type with the registered parser. Every failure comes out as an
 * `UnsupportedDocumentError` with a readable reason, so a broken file fails its own version only:
 * Office archives are checked first (zip bombs, entry count, DTDs), the parse runs under
 * `limits.parseTimeoutMs` (its parser gets `input.signal`), and a file whose name promises another
 * type than its content parses as what it is, with a warning; so does an empty document.
 *
 * @example await parseDocument({ bytes, filename: 'a.md', readRelative }, detectFileType(bytes, 'a.md'))
 */
export async function parseDocument(input: ParseInput, type: FileType): Promise<ParsedDocument> {
  const parser = parsers[type];
  if (!parser) {
    throw new UnsupportedDocumentError(
      `${input.filename} is ${describeType(type)}, which DropQA does not read yet; ${readableTypesSentence()}`,
    );
  }
  const limits = input.limits ?? DEFAULT_PARSE_LIMITS;
  try {
    await checkOoxml(input.bytes, input.filename, type, limits);
    const parsed = await withDeadline(
      input.filename,
      limits.parseTimeoutMs,
      (signal) => parser.parse({ ...input, signal }),
      input.signal,
    );
    const notes = [nameMismatch(input.filename, type), emptyNote(input.filename, parsed)].filter(
      (note): note is string => note !== undefined,
    );
    return notes.length > 0 ? { ...parsed, warnings: [...notes, ...parsed.warnings] } : parsed;
  } catch (error) {
    if (error instanceof UnsupportedDocumentError) throw error;
    // An engine error's message ("Cannot read properties of undefined") stays in the cause only.
    const reason = isEngineError(error)
      ? `its reader stopped on content it did not expect, so the file may be damaged; ${DAMAGED_ADVICE}`
      : reasonOf(error);
    throw new UnsupportedDocumentError(`${input.filename} could not be parsed as ${type}: ${reason}`, {
      cause: error,
    });
  }
}
