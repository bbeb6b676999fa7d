import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { createOutline } from '../outline.ts';
import { pipeTable } from '../pipe-table.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser } from '../types.ts';
import { type RtfDocument, readRtf } from './read-rtf.ts';

/**
 * The header every RTF writer starts with (Word, WordPad, TextEdit, LibreOffice): `{\rtf1`, then
 * control words only (`\adeflang1025`) up to the character set (`\ansi`, `\mac`, `\pc`, `\pca`).
 */
const RTF_HEADER = /^\{\\rtf1(?:\\[A-Za-z]+-?\d*[ \r\n]*)*?\\(?:ansi|mac|pca?)(?![A-Za-z])/;

/**
 * True when the bytes are an RTF document for a file of this name: one named .rtf only has to open
 * with `{\rtf`; under another name (a `.txt` that a word processor saved as RTF) the content has to
 * carry a writer's whole header (`RTF_HEADER`), so that a note that merely starts with `{\rtf` stays
 * the plain text it is, while a real RTF document is read as RTF (with the name's mismatch warned).
 *
 * @example isRtf(bytes('{\\rtf1\\ansi\\deff0 Hi}'), 'notes.txt') // true
 * @example isRtf(bytes('{\\rtf is how RTF files begin'), 'notes.txt') // false
 */
export function isRtf(bytes: Uint8Array, filename: string): boolean {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1');
  if (!head.startsWith('{\\rtf')) return false;
  return /\.rtf$/i.test(filename) || RTF_HEADER.test(head);
}

/**
 * Parses an RTF document (.rtf): headings from outline levels or "heading N" styles as the section
 * tree, paragraphs and tables as its leaves, Chinese text in `\uN` or in `\'xx` bytes of the declared
 * code page (see `readRtf`). Title: `{\info{\title}}`, else the file name. Binary data fails with that
 * reason; a cut-off file keeps what was read, with a warning.
 */
export async function parseRtf(input: ParseInput): Promise<ParsedDocument> {
  let rtf: RtfDocument;
  try {
    // RTF is 7-bit text whose 8-bit characters are escaped; any raw byte is read as itself.
    rtf = readRtf(Buffer.from(input.bytes).toString('latin1'), input.signal);
  } catch (error) {
    if (input.signal?.aborted) throw error;
    throw new UnsupportedDocumentError(
      `${input.filename} is not a readable RTF document: ${reasonOf(error)}`,
      {
        cause: error,
      },
    );
  }
  const outline = createOutline();
  for (const block of rtf.blocks) {
    if (block.kind === 'table')
      outline.leaf({ type: 'table', text: pipeTable(block.rows), rows: block.rows });
    else if (block.level !== undefined) outline.heading(block.level, block.text.replace(/\n/g, ' '));
    else outline.leaf({ type: 'paragraph', text: block.text });
  }
  const metadata: Record<string, unknown> = {};
  if (rtf.info.author) metadata.creator = rtf.info.author;
  if (rtf.info.subject) metadata.subject = rtf.info.subject;
  return {
    title: rtf.info.title || titleFromFilename(input.filename),
    metadata,
    children: outline.finish(),
    images: [],
    warnings: rtf.truncated
      ? [`${input.filename} ends before its last group closes (cut off?); the text up to there was read`]
      : [],
  };
}

/** The RTF parser of the registry. */
export const rtfParser: Parser = { type: 'rtf', parse: parseRtf };
