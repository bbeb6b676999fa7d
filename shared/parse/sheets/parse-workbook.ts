import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { damagedFile } from '../damaged.ts';
import { decodeTableText, type TableEncoding } from '../decode.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import { openOle } from '../ole.ts';
import { addOdsCharts } from '../opendocument/ods-charts.ts';
import { sniffBinary } from '../sniff.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser, SectionNode } from '../types.ts';
import { rowCounter, XLSX_PARAGRAPH_CHARS } from '../xlsx/parse-xlsx.ts';
import { sheetSection } from '../xlsx/sheet-section.ts';
import { readCsv, readsAsDelimited } from './read-csv.ts';
import { readXls } from './read-xls.ts';
import { readWorkbook } from './sheetjs.ts';
import { sheetjsWorkbook, type WorkbookSource } from './sheetjs-workbook.ts';
import { isBiff8 } from './xls-globals.ts';
import { xlsProperties } from './xls-properties.ts';

async function workbookSections(book: WorkbookSource, input: ParseInput): Promise<SectionNode[]> {
  const countRow = rowCounter(input.filename, (input.limits ?? DEFAULT_PARSE_LIMITS).maxRows);
  const options = { maxChars: XLSX_PARAGRAPH_CHARS, date1904: book.date1904, signal: input.signal, countRow };
  const sections: SectionNode[] = [];
  for (const sheet of book.sheets) {
    input.signal?.throwIfAborted();
    sections.push(await sheetSection(sheet, options));
  }
  return sections;
}

/** What a reader says of an encrypted file, said as DropQA says it of every encrypted Office file. */
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

/**
 * An Excel 97-2003 workbook read by our BIFF8 reader, which holds one sheet at a time (SheetJS
 * holds every sheet with a formatted copy of each cell: 1.3 GB for a 28 MB file). Undefined for
 * anything else SheetJS reads (.xlsb, BIFF5 and older, HTML or XML saved as .xls).
 */
function openXls(input: ParseInput): WorkbookSource | undefined {
  if (sniffBinary(input.bytes)?.kind !== 'ole') return undefined;
  const ole = openOle(input.bytes, input.filename);
  const stream = ole.stream('Workbook');
  if (!stream) return undefined;
  const buf = Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength);
  if (!isBiff8(buf)) return undefined;
  const { date1904, sheets } = readXls(buf, input.signal);
  return { date1904, sheets, properties: xlsProperties(ole) };
}

/**
 * SheetJS's notes on ODS number formats it translates only in part (the `value()>0`, `<0`, `=0`
 * branches of the accounting formats LibreOffice writes into every .ods): DropQA reads a number
 * format only to tell dates and percentages, which the branches share, so they say nothing of what
 * is read.
 */
const ODS_FORMAT_NOTE = /^(?:ODS number format may be incorrect|Excel does not support ODS format token)/;

interface OpenedWorkbook {
  book: WorkbookSource;
  encoding?: TableEncoding;
  /** What the reader noted about parts it read only in part. */
  notes: string[];
}

function openWorkbook(input: ParseInput, csv: boolean): OpenedWorkbook {
  const options = {
    dense: true,
    cellNF: true,
    cellDates: false,
    cellHTML: false,
    cellStyles: false,
  } as const;
  try {
    if (!csv) {
      const xls = openXls(input);
      if (xls) return { book: xls, notes: [] };
      const { book, notes } = readWorkbook(input.bytes, { ...options, type: 'array' });
      return { book: sheetjsWorkbook(book), notes: notes.filter((note) => !ODS_FORMAT_NOTE.test(note)) };
    }
    // CSV cells stay as written ("0012" is not 12); UTF-8, UTF-16 with a BOM, GBK or Big5 (Chinese Excel).
    const { text, encoding } = decodeTableText(input.bytes, input.filename);
    const tab = /\.tsv$/i.test(input.filename) || (!text.slice(0, 4096).includes(',') && text.includes('\t'));
    const title = titleFromFilename(input.filename);
    if (readsAsDelimited(text)) {
      const sheet = { name: title, hidden: false, rows: readCsv(text, tab ? '\t' : undefined) };
      return { book: { date1904: false, sheets: [sheet], properties: {} }, encoding, notes: [] };
    }
    const { book, notes } = readWorkbook(text, {
      ...options,
      type: 'string',
      raw: true,
      ...(tab ? { FS: '\t' } : {}),
    });
    return { book: sheetjsWorkbook(book, title), encoding, notes };
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
  const { book, encoding, notes } = openWorkbook(input, csv);
  const title = titleFromFilename(input.filename);
  let children: SectionNode[];
  try {
    children = await workbookSections(book, input);
  } catch (error) {
    if (error instanceof UnsupportedDocumentError) throw error;
    throw readError(input.filename, error);
  }
  const core = book.properties;
  const metadata: Record<string, unknown> = { sheets: children.length };
  if (core.Author) metadata.author = core.Author;
  if (core.Title) metadata.title = core.Title;
  const legacy = encoding ? LEGACY_ENCODINGS[encoding] : undefined;
  const warnings = [
    ...(legacy ? [`${input.filename} is not UTF-8; it was read as ${legacy}`] : []),
    ...notes.map((note) => `${input.filename}: the spreadsheet reader noted: ${note}`),
  ];
  return { title: core.Title?.trim() || title, metadata, children, images: [], warnings };
}

/** Excel 97-2003 (.xls) and binary (.xlsb) workbooks. */
export const xlsParser: Parser = { type: 'xls', parse: (input) => parseWorkbook(input) };
/** OpenDocument spreadsheets (.ods), with their charts (`addOdsCharts`). */
export const odsParser: Parser = {
  type: 'ods',
  parse: async (input) => {
    const document = await parseWorkbook(input);
    addOdsCharts(input.bytes, document);
    return document;
  },
};
/** CSV and TSV tables, one sheet each. */
export const csvParser: Parser = { type: 'csv', parse: (input) => parseWorkbook(input, true) };
