import type { OrderedLine } from './columns.ts';

/** A line in reading order; `cells` when it came from a baseline split at wide gaps (a table row). */
export interface RowLine extends OrderedLine {
  cells?: string[];
}

/**
 * Joins consecutive lines of one baseline and column (split at wide gaps) into one line whose
 * `cells` are their texts: a row of a table, or a label and its value.
 */
export function mergeRows(lines: readonly OrderedLine[]): RowLine[] {
  const out: RowLine[] = [];
  for (const entry of lines) {
    const last = out.at(-1);
    if (last && last.line.row === entry.line.row && last.column === entry.column) {
      const cells = last.cells ?? [last.line.text];
      cells.push(entry.line.text);
      last.cells = cells;
      last.line = {
        ...last.line,
        text: cells.join(' '),
        right: Math.max(last.line.right, entry.line.right),
        bold: last.line.bold && entry.line.bold,
      };
      continue;
    }
    out.push({ ...entry });
  }
  return out;
}
