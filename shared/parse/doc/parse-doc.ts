import WordExtractor from 'word-extractor';
import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { damagedFile } from '../damaged.ts';
import { createEmbeddedImages } from '../embedded-images.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import { openOle } from '../ole.ts';
import { createOutline } from '../outline.ts';
import { pipeTable } from '../pipe-table.ts';
import { titleFromFilename } from '../title.ts';
import type { ImageNode, ParsedDocument, ParseInput, Parser, TreeNode } from '../types.ts';
import { readWordPictures } from './pictures.ts';
import {
  checkNotEncrypted,
  openWordBody,
  readWordHeadings,
  type WordBody,
  type WordHeading,
} from './word-binary.ts';

/** word-extractor ends every table cell with a tab, so a table row is a line ending in one. */
const TABLE_ROW = /\t$/;

function tableNode(lines: string[]): TreeNode {
  const rows = lines.map((line) =>
    line
      .replace(TABLE_ROW, '')
      .split('\t')
      .map((cell) => cell.trim()),
  );
  return { type: 'table', text: pipeTable(rows), rows };
}

/**
 * The tree of a body's lines: lines that match the next heading (in order) open sections, runs of
 * table rows become tables, every other non-empty line a paragraph; each picture follows the line it
 * sits on (the whole table when it sits in a table).
 */
function bodyTree(body: string, headings: WordHeading[], pictures: Map<number, ImageNode[]>): TreeNode[] {
  const outline = createOutline();
  let next = 0;
  let rows: string[] = [];
  let inTable: ImageNode[] = [];
  const flushTable = () => {
    if (rows.length > 0) outline.leaf(tableNode(rows));
    for (const image of inTable) outline.leaf(image);
    rows = [];
    inTable = [];
  };
  const lines = body.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const here = pictures.get(index);
    if (line.endsWith('\t')) {
      rows.push(line);
      if (here) inTable.push(...here);
      continue;
    }
    if (rows.length > 0 || inTable.length > 0) flushTable();
    const text = collapseSpaces(line);
    const heading = headings[next];
    if (heading && heading.text === text) {
      outline.heading(heading.level, text);
      next++;
    } else if (text) {
      outline.leaf({ type: 'paragraph', text });
    }
    if (here) for (const image of here) outline.leaf(image);
  }
  flushTable();
  return outline.finish();
}

function notesSection(title: string, text: string): TreeNode[] {
  const paragraphs = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line): TreeNode => ({ type: 'paragraph', text: line, metadata: { kind: 'note' } }));
  return paragraphs.length > 0 ? [{ type: 'section', title, children: paragraphs }] : [];
}

/**
 * Parses a Word 97-2003 document (.doc): the text in reading order from `word-extractor` (fields
 * reduced to their results, tables as rows of cells), headings from the paragraphs' styles or
 * outline levels read from the binary records (`readWordHeadings`), tables as tables, footnotes and
 * endnotes in sections at the end. Inline pictures become image nodes where they sit
 * (`readWordPictures`; EMF and WMF kept with a warning, unreadable ones skipped with one); floating
 * pictures are not read. Encrypted documents fail with that reason; a document whose styles or
 * pictures cannot be read keeps its text without them, with a warning.
 */
export async function parseDoc(input: ParseInput): Promise<ParsedDocument> {
  const ole = openOle(input.bytes, input.filename);
  const word = ole.stream('WordDocument');
  if (!word)
    throw new UnsupportedDocumentError(
      `${input.filename} is not a Word 97-2003 document (no WordDocument stream)`,
    );
  checkNotEncrypted(word, input.filename);
  const warnings: string[] = [];
  let headings: WordHeading[] = [];
  let body: WordBody | undefined;
  try {
    body = openWordBody(word, ole.stream);
    headings = readWordHeadings(body);
  } catch (error) {
    warnings.push(`the paragraph styles could not be read, so no headings were found (${reasonOf(error)})`);
  }
  const images = createEmbeddedImages(warnings);
  const pictures = new Map<number, ImageNode[]>();
  try {
    const maxBytes = (input.limits ?? DEFAULT_PARSE_LIMITS).maxUncompressedBytes;
    for (const [i, { line, picture }] of (body
      ? readWordPictures(body, ole.stream('Data'), maxBytes)
      : []
    ).entries()) {
      if ('reason' in picture) {
        warnings.push(`picture ${i + 1} skipped: ${picture.reason}`);
        continue;
      }
      const name = images.add(picture.bytes, picture.contentType, 'Data');
      pictures.set(line, [...(pictures.get(line) ?? []), { type: 'image', name, alt: '' }]);
    }
  } catch (error) {
    warnings.push(`the pictures could not be read (${reasonOf(error)})`);
  }
  let extracted: Awaited<ReturnType<WordExtractor['extract']>>;
  try {
    extracted = await new WordExtractor().extract(
      Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength),
    );
  } catch (error) {
    throw damagedFile(input.filename, 'the text of the Word 97-2003 document could not be read', error);
  }
  const children = [
    ...bodyTree(extracted.getBody(), headings, pictures),
    ...notesSection('Footnotes', extracted.getFootnotes()),
    ...notesSection('Endnotes', extracted.getEndnotes()),
  ];
  return {
    title: titleFromFilename(input.filename),
    metadata: {},
    children,
    images: images.images,
    warnings,
  };
}

/** The Word 97-2003 parser of the registry. */
export const docParser: Parser = { type: 'doc', parse: parseDoc };
