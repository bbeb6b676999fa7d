import type { StreamedSheet } from './sheet-section.ts';

/** The parts of exceljs's streaming workbook reader that name its sheets (left out of its typings). */
export interface WorkbookState {
  model?: { sheets?: { name: string; rId: string; state?: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  properties?: { model?: { date1904?: boolean } };
}

/** A relationship target as a path under `xl/`: writers use both `worksheets/...` and `/xl/worksheets/...`. */
function underXl(target: string): string {
  return target.replace(/^\/+/, '').replace(/^xl\//, '');
}

/**
 * Gives a streamed sheet its workbook name and visibility when exceljs could not: it matches
 * relationship targets literally, so workbooks that write absolute targets (`/xl/worksheets/sheet1.xml`,
 * as openpyxl does) come out as "Sheet1". exceljs leaves the file's number (a string) as the id then.
 */
export function resolveSheetIdentity(sheet: StreamedSheet & { id?: unknown }, workbook: WorkbookState): void {
  if (typeof sheet.id !== 'string') return;
  const path = `worksheets/sheet${sheet.id}.xml`;
  const rel = workbook.workbookRels?.find((candidate) => underXl(candidate.Target) === path);
  const entry = rel && workbook.model?.sheets?.find((candidate) => candidate.rId === rel.Id);
  if (!entry) return;
  sheet.name = entry.name;
  sheet.state = entry.state;
}
