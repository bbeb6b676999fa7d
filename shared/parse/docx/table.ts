import { pipeTable } from '../pipe-table.ts';
import type { TableNode } from '../types.ts';
import { cleanText, type InlineContext, type InlinePart, inlineParts } from './inline.ts';
import type { DocxContainer, DocxElement, DocxTable } from './model.ts';

/** Inline content other than text: images, extras (charts) and comment references. */
export type InlineObject = Exclude<InlinePart, string>;

/** A table node and what its cells hold besides text, which follows it in reading order. */
export interface TableLeaves {
  /** Undefined when every cell is empty. */
  table: TableNode | undefined;
  objects: InlineObject[];
}

function cellContent(cell: DocxContainer, context: InlineContext, objects: InlineObject[]): string {
  const lines: string[] = [];
  const visit = (elements: readonly DocxElement[]) => {
    for (const element of elements) {
      if (element.type === 'paragraph') {
        const parts: InlinePart[] = inlineParts(element.children, context);
        for (const part of parts) if (typeof part !== 'string') objects.push(part);
        lines.push(parts.filter((part): part is string => typeof part === 'string').join(''));
      } else if (element.type === 'table' || element.type === 'tableRow' || element.type === 'tableCell') {
        visit(element.children); // a nested table reads as its cells' text
      }
    }
  };
  visit(cell.children);
  return cleanText(lines.join('\n')).replace(/\n/g, ' ');
}

/**
 * Lays the cells out on a grid: a cell spanning rows repeats its text in the rows below (each row then
 * reads whole), a cell spanning columns leaves the extra columns empty.
 */
function grid(table: DocxTable, context: InlineContext, objects: InlineObject[]): string[][] {
  const rows: string[][] = [];
  const pending = new Map<number, { text: string; rows: number }>();
  for (const row of table.children) {
    if (row.type !== 'tableRow') continue;
    const cells: string[] = [];
    const take = () => {
      for (let carried = pending.get(cells.length); carried; carried = pending.get(cells.length)) {
        cells.push(carried.text);
        if (--carried.rows === 0) pending.delete(cells.length - 1);
      }
    };
    for (const cell of row.children) {
      if (cell.type !== 'tableCell') continue;
      take();
      const text = cellContent(cell, context, objects);
      const column = cells.length;
      cells.push(text);
      for (let i = 1; i < (cell.colSpan ?? 1); i++) cells.push('');
      if ((cell.rowSpan ?? 1) > 1) pending.set(column, { text, rows: (cell.rowSpan ?? 1) - 1 });
    }
    take();
    rows.push(cells);
  }
  const width = Math.max(0, ...rows.map((row) => row.length));
  return rows
    .filter((row) => row.some((cell) => cell !== ''))
    .map((row) => [...row, ...Array<string>(width - row.length).fill('')]);
}

/** Converts a Word table into a table node (pipe-table text, rows of cell text) and its other content. */
export function tableLeaves(table: DocxTable, context: InlineContext): TableLeaves {
  const objects: InlineObject[] = [];
  const rows = grid(table, context, objects);
  if (rows.length === 0) return { table: undefined, objects };
  return { table: { type: 'table', text: pipeTable(rows), rows }, objects };
}
