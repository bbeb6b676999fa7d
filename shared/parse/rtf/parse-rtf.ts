import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { createOutline } from '../outline.ts';
import { pipeTable } from '../pipe-table.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser } from '../types.ts';
import { type RtfDocument, readRtf } from './read-rtf.ts';

/** True when the bytes open an RTF document (`{\rtf`), whatever the file's name. */
export function isRtf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '{\\rtf';
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
