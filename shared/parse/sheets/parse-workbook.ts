import type { CellObject, WorkBook, WorkSheet } from '@e965/xlsx';
import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { damagedFile } from '../damaged.ts';
import { decodeTableText, type TableEncoding } from '../decode.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser, SectionNode } from '../types.ts';
import { cellText } from '../xlsx/cell-text.ts';
import { rowCounter, XLSX_PARAGRAPH_CHARS } from '../xlsx/parse-xlsx.ts';
import type { SheetCell, SheetRow } from '../xlsx/sheet-layout.ts';
import { isTextLabel, oneLine, sheetSection } from '../xlsx/sheet-section.ts';
import { XLSX } from './sheetjs.ts';

/** A cell whose "is it a label" is worked out only when a layout asks (most rows never do). */
class Cell implements SheetCell {
  #label: boolean | undefined;
  constructor(
    readonly column: number,
    readonly text: string,
    private readonly textual: boolean,
  ) {}
  get label(): boolean {
    this.#label ??= isTextLabel(this.textual, this.text);
    return this.#label;
  }
}

/** A SheetJS cell as the text Excel shows: cached values, dates by their number format, errors as written. */
function sheetCell(cell: CellObject | undefined, column: number, date1904: boolean): SheetCell | undefined {
  if (!cell || cell.t === 'z') return undefined;
  const value = cell.t === 'e' ? (cell.w ?? '') : cell.v;
  // Text (every CSV cell) is its own text; numbers and dates go through their number format.
  const text = oneLine(
    typeof value === 'string'
      ? value.trim()
      : cellText(value as never, { numFmt: typeof cell.z === 'string' ? cell.z : undefined, date1904 }),
  );
  if (!text) return undefined;
  return new Cell(column + 1, text, cell.t === 's');
}

function* sheetRows(sheet: WorkSheet, date1904: boolean): Iterable<SheetRow> {
  const data = (sheet['!data'] ?? []) as (CellObject[] | undefined)[];
  for (let r = 0; r < data.length; r++) {
    const row = data[r];
    const cells: SheetCell[] = [];
    if (row) {
      for (let c = 0; c < row.length; c++) {
        const cell = sheetCell(row[c], c, date1904);
        if (cell) cells.push(cell);
      }
    }
    yield { number: r + 1, cells };
  }
}

async function workbookSections(book: WorkBook, input: ParseInput): Promise<SectionNode[]> {
  const countRow = rowCounter(input.filename, (input.limits ?? DEFAULT_PARSE_LIMITS).maxRows);
  const date1904 = Boolean(book.Workbook?.WBProps?.date1904);
  const sections: SectionNode[] = [];
  for (const [index, name] of book.SheetNames.entries()) {
    input.signal?.throwIfAborted();
    const sheet = book.Sheets[name];
    if (!sheet) continue;
    const hidden = Boolean(book.Workbook?.Sheets?.[index]?.Hidden);
    const options = { maxChars: XLSX_PARAGRAPH_CHARS, date1904, signal: input.signal, countRow };
    sections.push(await sheetSection({ name, hidden, rows: sheetRows(sheet, date1904) }, options));
  }
  return sections;
}

/** What SheetJS says of an encrypted file, said as DropQA says it of every encrypted Office file. */
function readError(filename: string, error: unknown): UnsupportedDocumentError {
  const reason = reasonOf(error);
  if (/password|encrypt/i.test(reason)) {
    return new UnsupportedDocumentError(
      `${filename} is password-protected (an encrypted Excel workbook); save it without a password`,
      { cause: error },
    );
  }
  return damagedFile(filename, 'the workbook could not be read', error);
}

function readBook(input: ParseInput, csv: boolean): { book: WorkBook; encoding?: TableEncoding } {
  const options = {
    dense: true,
    cellNF: true,
    cellDates: false,
    cellHTML: false,
    cellStyles: false,
  } as const;
  try {
    if (!csv) return { book: XLSX.read(input.bytes, { ...options, type: 'array' }) };
    // CSV cells stay as written ("0012" is not 12); UTF-8, UTF-16 with a BOM, GBK or Big5 (Chinese Excel).
    const { text, encoding } = decodeTableText(input.bytes, input.filename);
    const tab = /\.tsv$/i.test(input.filename) || (!text.slice(0, 4096).includes(',') && text.includes('\t'));
    const book = XLSX.read(text, { ...options, type: 'string', raw: true, ...(tab ? { FS: '\t' } : {}) });
    return { book, encoding };
  } catch (error) {
    if (error instanceof UnsupportedDocumentError) throw error;
    throw readError(input.filename, error);
  }
}

/** How a CSV's legacy encoding is named in its warning. */
const LEGACY_ENCODINGS: Partial<Record<TableEncoding, string>> = {
  gb18030: 'GBK (GB18030), the encoding of Chinese Excel exports',
  big5: 'Big5, the encoding of Traditional Chinese Excel exports',
};

/**
 * Parses a workbook SheetJS reads (Excel 97-2003 .xls, binary .xlsb, OpenDocument .ods, CSV/TSV) into
 * the same tree as .xlsx: a section per sheet titled by its name (hidden ones kept with
 * `{hidden: true}`), a header row naming the columns, cached values, dates by their number format,
 * a merged range's value once. A CSV or TSV file is one sheet named after the file. Password-protected
 * and damaged workbooks fail with that reason; more than `limits.maxRows` rows fail the workbook.
 *
 * @example (await parseWorkbook({ bytes, filename: 'budget.xls' })).children[0] // { type: 'section', title: 'Budget', ... }
 */
export async function parseWorkbook(input: ParseInput, csv = false): Promise<ParsedDocument> {
  const { book, encoding } = readBook(input, csv);
  const title = titleFromFilename(input.filename);
  if (csv && book.SheetNames[0] && book.SheetNames[0] !== title) {
    const [first] = book.SheetNames;
    book.Sheets[title] = book.Sheets[first] as WorkSheet;
    book.SheetNames = [title];
  }
  let children: SectionNode[];
  try {
    children = await workbookSections(book, input);
  } catch (error) {
    if (error instanceof UnsupportedDocumentError) throw error;
    throw readError(input.filename, error);
  }
  const core = book.Props ?? {};
  const metadata: Record<string, unknown> = { sheets: children.length };
  if (core.Author) metadata.author = core.Author;
  if (core.Title) metadata.title = core.Title;
  const legacy = encoding ? LEGACY_ENCODINGS[encoding] : undefined;
  const warnings = legacy ? [`${input.filename} is not UTF-8; it was read as ${legacy}`] : [];
  return { title: core.Title?.trim() || title, metadata, children, images: [], warnings };
}

/** Excel 97-2003 (.xls) and binary (.xlsb) workbooks. */
export const xlsParser: Parser = { type: 'xls', parse: (input) => parseWorkbook(input) };
/** OpenDocument spreadsheets (.ods). */
export const odsParser: Parser = { type: 'ods', parse: (input) => parseWorkbook(input) };
/** CSV and TSV tables, one sheet each. */
export const csvParser: Parser = { type: 'csv', parse: (input) => parseWorkbook(input, true) };
