import ExcelJS from 'exceljs';
import type { ParseInput } from '#shared/parse/types.ts';
import { zipBytes } from './fixtures.ts';

/** Builds a workbook in memory with exceljs and returns it as a parse input. */
export async function workbookInput(
  build: (workbook: ExcelJS.Workbook) => void,
  filename = 'book.xlsx',
): Promise<ParseInput> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  const buffer = await workbook.xlsx.writeBuffer();
  return { bytes: new Uint8Array(buffer as ArrayBuffer), filename };
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** One sheet of a hand-written workbook: its XML `sheetData` body and how the workbook refers to it. */
export interface RawSheet {
  name: string;
  rows?: string;
  /** The relationship target as written (`worksheets/sheet1.xml` or `/xl/worksheets/sheet1.xml`). */
  target?: string;
  chart?: boolean;
}

/**
 * A workbook written part by part, in the ZIP order given (exceljs's own writer always uses the same
 * order): for the layouts other writers produce. Style 1 is a date format.
 */
export function rawWorkbook(
  sheets: RawSheet[],
  options: { sharedStrings?: string[]; partsLast?: boolean } = {},
): Uint8Array {
  const targets = sheets.map((sheet, i) => sheet.target ?? `worksheets/sheet${i + 1}.xml`);
  const rels = sheets
    .map(
      (sheet, i) =>
        `<Relationship Id="rId${i + 1}" Type="${REL}/${sheet.chart ? 'chartsheet' : 'worksheet'}" Target="${targets[i]}"/>`,
    )
    .join('');
  const workbook = `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>${sheets
    .map((sheet, i) => `<sheet name="${sheet.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join('')}</sheets></workbook>`;
  const styles = `<styleSheet xmlns="${MAIN}"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>`;
  const strings = (options.sharedStrings ?? []).map((text) => `<si><t>${text}</t></si>`).join('');
  const parts = sheets.map((sheet, i) => ({
    name: (targets[i] ?? '').startsWith('/') ? (targets[i] ?? '').slice(1) : `xl/${targets[i]}`,
    data: `<worksheet xmlns="${MAIN}"><sheetData>${sheet.rows ?? ''}</sheetData></worksheet>`,
    deflate: true,
  }));
  const shared = [
    { name: 'xl/styles.xml', data: styles, deflate: true },
    { name: 'xl/sharedStrings.xml', data: `<sst xmlns="${MAIN}">${strings}</sst>`, deflate: true },
  ];
  return zipBytes([
    { name: '[Content_Types].xml', data: '<Types/>' },
    { name: 'xl/workbook.xml', data: workbook, deflate: true },
    { name: 'xl/_rels/workbook.xml.rels', data: `<Relationships>${rels}</Relationships>`, deflate: true },
    ...(options.partsLast ? [...parts, ...shared] : [...shared, ...parts]),
  ]);
}
