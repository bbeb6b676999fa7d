import { decodeText } from './decode.ts';
import { titleFromFilename } from './title.ts';
import type { ParagraphNode, ParsedDocument, ParseInput, Parser } from './types.ts';

/**
 * Parses plain text: paragraphs are separated by blank lines, line breaks inside a paragraph are
 * kept, and the title comes from the file name.
 */
export async function parseText(input: ParseInput): Promise<ParsedDocument> {
  const children = textParagraphs(decodeText(input.bytes, input.filename));
  return { title: titleFromFilename(input.filename), metadata: {}, children, images: [], warnings: [] };
}

/** Plain text as paragraphs: split at blank lines, line breaks inside a paragraph kept. */
export function textParagraphs(text: string): ParagraphNode[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n(?:[ \t]*\n)+/)
    .map((block) => block.replace(/^(?:[ \t]*\n)+|\s+$/g, ''))
    .filter((block) => block.trim() !== '')
    .map((block) => ({ type: 'paragraph' as const, text: block }));
}

/** The plain-text parser of the registry. */
export const textParser: Parser = { type: 'txt', parse: parseText };
