import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { titleFromFilename } from '../title.ts';
import type { TextBlock } from './layout.ts';

/** Producers put the source file's name in the Title field: "Microsoft Word - report.docx". */
const PRODUCER_PREFIX = /^microsoft\s+(?:word|powerpoint|excel)\s+-\s+/i;
/** Names an editor gives a new file, which say nothing about the document. */
const DEFAULT_NAME = /^(?:untitled|document|presentation|book|slide|page)\s*-?\s*\d*$/i;
const FILE_EXTENSION = /\.(?:docx?|pptx?|xlsx?|rtf|odt|txt|pdf)$/i;

function infoTitle(info: unknown): string | undefined {
  const title = (info as { Title?: unknown } | undefined)?.Title;
  if (typeof title !== 'string') return undefined;
  const cleaned = collapseSpaces(title.replace(PRODUCER_PREFIX, '').replace(FILE_EXTENSION, ''));
  return cleaned === '' || DEFAULT_NAME.test(cleaned) ? undefined : cleaned;
}

/**
 * The document title: the document information's Title, else the largest text on the first page
 * (when it is larger than the body text and no other block of the document has its size: a chapter
 * heading style that recurs is not a title), else the file name.
 *
 * @param blocks the document's text blocks in reading order
 */
export function pdfTitle(
  info: unknown,
  blocks: readonly TextBlock[],
  body: number,
  filename: string,
): string {
  const fromInfo = infoTitle(info);
  if (fromInfo) return fromInfo;
  let largest: TextBlock | undefined;
  for (const block of blocks) {
    if (block.page !== 1) break;
    if (block.size > body && block.size > (largest?.size ?? 0) && /\p{L}/u.test(block.text)) largest = block;
  }
  const unique = blocks.every((block) => block === largest || block.size !== largest?.size);
  if (largest && unique && largest.text.length <= 200) return largest.text;
  return titleFromFilename(filename);
}
