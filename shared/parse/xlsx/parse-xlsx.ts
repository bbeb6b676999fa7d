import { UnsupportedDocumentError } from '#shared/errors.ts';
import { readCoreProperties } from '../core-properties.ts';
import { damagedFile } from '../damaged.ts';
import { legacyOfficeReason } from '../legacy-office.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import { openPackage } from '../pptx/package.ts';
import { isEncryptedOoxml } from '../sniff.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser, SectionNode } from '../types.ts';
import { readZipDirectory, type ZipEntry } from '../zip.ts';
import { sheetDrawings } from './sheet-drawings.ts';
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
      isEncryptedOoxml(bytes)
        ? `${filename} is password-protected (an encrypted Excel workbook); save it without a password`
        : `${filename} is not a readable Excel workbook: ${legacyOfficeReason(bytes, filename, '.xlsx')}`,
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

/** Counts a workbook's rows against `limits.maxRows` and refuses the workbook past it. */
export function rowCounter(filename: string, maxRows: number): () => void {
  let rows = 0;
  return () => {
    rows++;
    if (rows > maxRows) {
      throw new UnsupportedDocumentError(
        `${filename} has more than ${maxRows.toLocaleString('en-US')} rows (limits.maxRows)`,
      );
    }
  };
}

async function readSheets(
  input: ParseInput,
  entries: ZipEntry[],
  warnings: string[],
): Promise<SectionNode[]> {
  const { signal } = input;
  const countRow = rowCounter(input.filename, (input.limits ?? DEFAULT_PARSE_LIMITS).maxRows);
  const sections: SectionNode[] = [];
  const pkg = openPackage(input.bytes, entries, (input.limits ?? DEFAULT_PARSE_LIMITS).maxUncompressedBytes);
  try {
    const { sheets, date1904 } = await openWorkbook(input.bytes, entries, input.filename);
    for (const sheet of sheets) {
      signal?.throwIfAborted();
      const drawn = sheet.part ? sheetDrawings(pkg, sheet.part, { sheet: sheet.name }) : [];
      if ('skipped' in sheet) {
        if (sheet.chartSheet && drawn.length > 0) {
          sections.push({
            type: 'section',
            title: sheet.name,
            children: drawn,
            metadata: { sheet: sheet.name },
          });
        } else warnings.push(`sheet "${sheet.name}" was skipped: ${sheet.skipped}`);
        continue;
      }
      const options = { maxChars: XLSX_PARAGRAPH_CHARS, date1904, signal, countRow };
      const section = await readSheetSection(sheet.open(), options);
      section.children.push(...drawn);
      sections.push(section);
    }
  } catch (error) {
    // Limits and the time limit already carry their own reason, naming the file.
    if (error instanceof UnsupportedDocumentError && error.message.startsWith(input.filename)) throw error;
    throw damagedFile(input.filename, 'the workbook could not be read', error);
  }
  return sections;
}

/**
 * Parses an Excel workbook (.xlsx) with exceljs's streaming reader, so memory stays bounded by one
 * row at a time plus the shared strings: each sheet becomes a section titled by its name (hidden
 * sheets kept, with `{hidden: true}`), a header row names the columns (title rows above it become
 * notes; form-like sheets read as "label: value" pairs), and the rows follow as "column: value"
 * lines grouped into paragraphs of at most 800 characters, then what is drawn on the sheet in the
 * drawing's order: charts (title and a categories × series table from the chart's cached values) and
 * the text of text boxes and shapes; a chart sheet is a section of its charts. More than
 * `limits.maxRows` rows, or a
 * parse past its time limit (`input.signal`), fail the workbook with the reason.
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
