import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
// A static import, so bundlers see it: the package exports this class at run time only as a type.
import WorksheetReader from 'exceljs/lib/stream/xlsx/worksheet-reader.js';
import type { ZipEntry } from '../zip.ts';
import { readSharedStrings } from './shared-strings.ts';
import type { StreamedSheet } from './sheet-section.ts';
import { keepTypedResults } from './typed-results.ts';
import { zipEntryTextStream } from './zip-entry-stream.ts';

/**
 * A sheet of the workbook, in workbook order, with its part (for its charts): how to open its rows,
 * or why it has none (a chart sheet has no rows, only charts).
 */
export type WorkbookSheet =
  | { name: string; part: string; open: () => StreamedSheet }
  | { name: string; part?: string; skipped: string; chartSheet?: boolean };

/** exceljs's streaming workbook reader, driven part by part (these members are left out of its typings). */
interface ReaderInternals {
  options: Record<string, unknown>;
  sharedStrings?: unknown[];
  workbookRels?: { Id: string; Target: string; Type?: string }[];
  model?: { sheets?: { name: string; id: number; rId: string; state?: string }[] };
  properties?: { model?: { date1904?: boolean } };
  _parseRels(stream: Readable): Promise<void>;
  _parseWorkbook(stream: Readable): Promise<void>;
  _parseStyles(stream: Readable): Promise<void>;
  _parseSharedStrings(stream: Readable): AsyncIterable<unknown>;
}

/** A relationship target as a ZIP path: relative to `xl/`, or absolute (`/xl/...`, as openpyxl writes). */
function partPath(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
}

function sheetStream(text: Readable | undefined): Readable | undefined {
  return text && Readable.from(keepTypedResults(text));
}

/**
 * Opens a workbook for streaming: reads the workbook, relationships, styles and shared strings parts,
 * then lists its sheets in workbook order, each with a row stream inflated on demand.
 *
 * Why not `WorkbookReader` over the whole file: fed from a stream, it iterates ZIP entries while still
 * writing earlier sheets to temporary files and then sometimes loses later entries (styles or shared
 * strings), which silently turns dates into numbers and strings into nothing. Reading the few small
 * parts first from the central directory is deterministic, and needs no temporary files.
 */
export async function openWorkbook(
  bytes: Uint8Array,
  entries: ZipEntry[],
  filename: string,
): Promise<{ sheets: WorkbookSheet[]; date1904: boolean }> {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const part = (name: string) => {
    const entry = byName.get(name);
    return entry ? zipEntryTextStream(bytes, entry) : undefined;
  };
  const reader = new ExcelJS.stream.xlsx.WorkbookReader('', {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles give the number formats that tell dates; hyperlink targets are never needed (text only).
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as ReaderInternals;
  const rels = part('xl/_rels/workbook.xml.rels');
  reader.workbookRels = [];
  if (rels) await reader._parseRels(rels);
  const workbook = part('xl/workbook.xml');
  if (workbook) await reader._parseWorkbook(workbook);
  const styles = part('xl/styles.xml');
  if (styles) await reader._parseStyles(styles);
  const strings = part('xl/sharedStrings.xml');
  reader.sharedStrings = strings ? await readSharedStrings(reader, strings, filename) : [];

  const sheets = (reader.model?.sheets ?? []).map((entry): WorkbookSheet => {
    const rel = reader.workbookRels?.find((candidate) => candidate.Id === entry.rId);
    const path = rel ? partPath(rel.Target) : undefined;
    if (!path || !byName.has(path)) return { name: entry.name, skipped: 'its part is missing' };
    if (!/\/worksheet$/.test(rel?.Type ?? '/worksheet'))
      return { name: entry.name, part: path, skipped: 'it is a chart sheet', chartSheet: true };
    const open = () => {
      const sheet = new WorksheetReader({
        workbook: reader,
        id: entry.id,
        iterator: sheetStream(part(path)),
        options: reader.options,
      }) as StreamedSheet;
      sheet.name = entry.name;
      sheet.state = entry.state;
      return sheet;
    };
    return { name: entry.name, part: path, open };
  });
  return { sheets, date1904: reader.properties?.model?.date1904 === true };
}
