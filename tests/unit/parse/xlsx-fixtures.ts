import ExcelJS from 'exceljs';
import type { ParseInput } from '#shared/parse/types.ts';

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
