import type { Row } from 'exceljs';
import type { SectionNode, TreeNode } from '../types.ts';
import { type CellFormat, cellText } from './cell-text.ts';
import { fallbackColumnName } from './column-name.ts';
import { createRowParagraphs } from './row-paragraphs.ts';

/** What the streaming reader gives for one worksheet (its typings omit name and state). */
export interface StreamedSheet extends AsyncIterable<Row> {
  name: string;
  state?: string;
}

/** One line per cell: a value's own line breaks would read as new "column: value" pairs. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

function rowCells(row: Row, date1904: boolean): [number, string][] {
  const cells: [number, string][] = [];
  row.eachCell((cell, column) => {
    const format: CellFormat = { numFmt: cell.numFmt, date1904 };
    const text = oneLine(cellText(cell.value, format));
    if (text) cells.push([column, text]);
  });
  return cells;
}

/**
 * Reads one worksheet row by row into a section titled by the sheet's name: the first non-empty row
 * names the columns (a blank header cell is named by its letter, `Column C`), every later row becomes
 * "column: value" lines, empty cells skipped, grouped into paragraphs of at most `maxChars`. Only the
 * current row is held, so memory stays bounded whatever the sheet's size. A merged range's value is
 * stored in its top-left cell alone, so it is given once, not repeated over the range.
 */
export async function readSheetSection(
  sheet: StreamedSheet,
  options: { maxChars: number; date1904: boolean },
): Promise<SectionNode> {
  const paragraphs = createRowParagraphs(sheet.name, options.maxChars);
  let header: Map<number, string> | undefined;
  let headerRow = 0;
  for await (const row of sheet) {
    const cells = rowCells(row, options.date1904);
    if (cells.length === 0) continue;
    if (!header) {
      header = new Map(cells);
      headerRow = row.number;
      continue;
    }
    const names = header;
    paragraphs.add(
      row.number,
      cells.map(([column, text]) => `${names.get(column) ?? fallbackColumnName(column)}: ${text}`),
    );
  }
  const children: TreeNode[] = paragraphs.finish();
  const metadata: Record<string, unknown> = { sheet: sheet.name };
  if (sheet.state === 'hidden' || sheet.state === 'veryHidden') metadata.hidden = true;
  if (header) {
    const columns = columnNames(header);
    metadata.headerRow = headerRow;
    metadata.columns = columns;
    if (children.length === 0) {
      children.push({
        type: 'paragraph',
        text: `Columns: ${columns.join(', ')}`,
        metadata: { kind: 'header', sheet: sheet.name, row: headerRow },
      });
    }
  }
  return { type: 'section', title: sheet.name, children, metadata };
}

/** Header names from the first to the last named column, gaps named by their letter. */
function columnNames(header: Map<number, string>): string[] {
  const first = Math.min(...header.keys());
  const last = Math.max(...header.keys());
  const names: string[] = [];
  for (let column = first; column <= last; column++)
    names.push(header.get(column) ?? fallbackColumnName(column));
  return names;
}
