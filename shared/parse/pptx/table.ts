import { pipeTable } from '../pipe-table.ts';
import type { TableNode } from '../types.ts';
import { flatText } from './text-body.ts';
import { childrenNamed, type XmlElement } from './xml.ts';

/**
 * A DrawingML table (`a:tbl`) as a table node: one row of cell text per `a:tr`. PowerPoint writes a
 * placeholder cell for every grid position a merge covers: cells merged from above (`vMerge`) repeat
 * the text above them, so each row reads whole (as the DOCX parser does), cells merged from the left
 * (`hMerge`) stay empty. Undefined when every cell is empty.
 */
export function tableNode(table: XmlElement, metadata: Record<string, unknown>): TableNode | undefined {
  const rows: string[][] = [];
  let previous: string[] = [];
  for (const row of childrenNamed(table, 'tr')) {
    const cells = childrenNamed(row, 'tc').map((cell, column) => {
      if (cell.attributes.vMerge === '1' || cell.attributes.vMerge === 'true') return previous[column] ?? '';
      if (cell.attributes.hMerge === '1' || cell.attributes.hMerge === 'true') return '';
      return flatText(childrenNamed(cell, 'txBody')[0]);
    });
    previous = cells;
    rows.push(cells);
  }
  const width = Math.max(0, ...rows.map((row) => row.length));
  const kept = rows
    .filter((row) => row.some((cell) => cell !== ''))
    .map((row) => [...row, ...Array<string>(width - row.length).fill('')]);
  if (kept.length === 0) return undefined;
  return { type: 'table', text: pipeTable(kept), rows: kept, metadata };
}
