import WordExtractor from 'word-extractor';
import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { damagedFile } from '../damaged.ts';
import { openOle } from '../ole.ts';
import { createOutline } from '../outline.ts';
import { pipeTable } from '../pipe-table.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser, TreeNode } from '../types.ts';
import { checkNotEncrypted, readWordHeadings, type WordHeading } from './word-binary.ts';

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
 * table rows become tables, every other non-empty line a paragraph.
 */
function bodyTree(body: string, headings: WordHeading[]): TreeNode[] {
  const outline = createOutline();
  let next = 0;
  let rows: string[] = [];
  const flushRows = () => {
    if (rows.length > 0) outline.leaf(tableNode(rows));
    rows = [];
  };
  for (const line of body.split('\n')) {
    if (TABLE_ROW.test(line)) {
      rows.push(line);
      continue;
    }
    flushRows();
    const text = line.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const heading = headings[next];
    if (heading && heading.text === text) {
      outline.heading(heading.level, text);
      next++;
    } else {
      outline.leaf({ type: 'paragraph', text });
    }
  }
  flushRows();
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
 * endnotes in sections at the end. Images are not read. Encrypted documents fail with that reason;
 * a document whose styles cannot be read keeps its text without headings, with a warning.
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
  try {
    headings = readWordHeadings(word, ole.stream);
  } catch (error) {
    warnings.push(`the paragraph styles could not be read, so no headings were found (${reasonOf(error)})`);
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
    ...bodyTree(extracted.getBody(), headings),
    ...notesSection('Footnotes', extracted.getFootnotes()),
    ...notesSection('Endnotes', extracted.getEndnotes()),
  ];
  return { title: titleFromFilename(input.filename), metadata: {}, children, images: [], warnings };
}

/** The Word 97-2003 parser of the registry. */
export const docParser: Parser = { type: 'doc', parse: parseDoc };
