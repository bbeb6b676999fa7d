import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { parsers } from './registry.ts';
import type { FileType, ParsedDocument, ParseInput } from './types.ts';

/**
 * Parses a document of a detected type with the registered parser. Every failure comes out as an
 * `UnsupportedDocumentError` with a readable reason, so a broken file fails its own version only.
 *
 * @example await parseDocument({ bytes, filename: 'a.md', readRelative }, detectFileType(bytes, 'a.md'))
 */
export async function parseDocument(input: ParseInput, type: FileType): Promise<ParsedDocument> {
  const parser = parsers[type];
  if (!parser) throw new UnsupportedDocumentError(`${type.toUpperCase()} documents are not supported yet`);
  try {
    return await parser.parse(input);
  } catch (error) {
    if (error instanceof UnsupportedDocumentError) throw error;
    throw new UnsupportedDocumentError(
      `${input.filename} could not be parsed as ${type}: ${reasonOf(error)}`,
      {
        cause: error,
      },
    );
  }
}
