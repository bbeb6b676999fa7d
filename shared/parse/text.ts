import { decodeText } from './decode.ts';
import { titleFromFilename } from './title.ts';
import type { ParsedDocument, ParseInput, Parser } from './types.ts';

/**
 * Parses plain text: paragraphs are separated by blank lines, line breaks inside a paragraph are
 * kept, and the title comes from the file name.
 */
export async function parseText(input: ParseInput): Promise<ParsedDocument> {
  const text = decodeText(input.bytes, input.filename).replace(/\r\n?/g, '\n');
  const children = text
    .split(/\n(?:[ \t]*\n)+/)
    .map((block) => block.replace(/^(?:[ \t]*\n)+|\s+$/g, ''))
    .filter((block) => block.trim() !== '')
    .map((block) => ({ type: 'paragraph' as const, text: block }));
  return { title: titleFromFilename(input.filename), metadata: {}, children, images: [], warnings: [] };
}

/** The plain-text parser of the registry. */
export const textParser: Parser = { type: 'txt', parse: parseText };
