import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { readCoreProperties } from '../core-properties.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser, SectionNode } from '../types.ts';
import { readZipDirectory, type ZipEntry } from '../zip.ts';
import { readSheetSection } from './sheet-section.ts';
import { openWorkbook } from './workbook-parts.ts';

/**
 * Paragraph bound for grouped rows. A parser receives only its input, not the configuration, so this
 * mirrors the default of `limits.maxParagraphChars`; normalization applies the configured limit later.
 */
export const XLSX_PARAGRAPH_CHARS = 800;

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0];
const ZIP_MAGIC = [0x50, 0x4b];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

function workbookEntries(input: ParseInput): ZipEntry[] {
  const { bytes, filename } = input;
  if (startsWith(bytes, OLE_MAGIC)) {
    throw new UnsupportedDocumentError(
      `${filename} is a password-protected workbook or a legacy .xls file; save it as .xlsx without a password`,
    );
  }
  if (!startsWith(bytes, ZIP_MAGIC)) {
    throw new UnsupportedDocumentError(`${filename} is not an Excel workbook (it is not a ZIP archive)`);
  }
  const entries = readZipDirectory(bytes);
  if (!entries.some((entry) => entry.name === 'xl/workbook.xml')) {
    throw new UnsupportedDocumentError(
      `${filename} is a ZIP archive without a workbook part (xl/workbook.xml)`,
    );
  }
  return entries;
}

async function readSheets(
  input: ParseInput,
  entries: ZipEntry[],
  warnings: string[],
): Promise<SectionNode[]> {
  const sections: SectionNode[] = [];
  try {
    const { sheets, date1904 } = await openWorkbook(input.bytes, entries);
    for (const sheet of sheets) {
      if ('skipped' in sheet) {
        warnings.push(`sheet "${sheet.name}" was skipped: ${sheet.skipped}`);
        continue;
      }
      sections.push(await readSheetSection(sheet.open(), { maxChars: XLSX_PARAGRAPH_CHARS, date1904 }));
    }
  } catch (error) {
    throw new UnsupportedDocumentError(
      `${input.filename}: the workbook could not be read (${reasonOf(error)})`,
      {
        cause: error,
      },
    );
  }
  return sections;
}

/**
 * Parses an Excel workbook (.xlsx) with exceljs's streaming reader, so memory stays bounded by one
 * row at a time plus the shared strings: each sheet becomes a section titled by its name (hidden
 * sheets kept, with `{hidden: true}`), the first non-empty row names the columns, and the rows
 * follow as "column: value" lines grouped into paragraphs of at most 800 characters.
 * Title: the workbook's core title, else the file name without its extension.
 *
 * @example (await parseXlsx({ bytes, filename: 'budget.xlsx' })).children[0] // { type: 'section', title: 'Sheet1', ... }
 */
export async function parseXlsx(input: ParseInput): Promise<ParsedDocument> {
  const entries = workbookEntries(input);
  const core = readCoreProperties(input.bytes, entries);
  const warnings: string[] = [];
  const children = await readSheets(input, entries, warnings);
  const metadata: Record<string, unknown> = { ...core, sheets: children.length };
  return { title: core.title ?? titleFromFilename(input.filename), metadata, children, images: [], warnings };
}

/** The XLSX parser of the registry. */
export const xlsxParser: Parser = { type: 'xlsx', parse: parseXlsx };
