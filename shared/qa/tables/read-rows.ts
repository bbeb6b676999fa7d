import { readPipeRows } from '#shared/parse/pipe-table.ts';
import type { Table, TableRow } from './table.ts';

/** A passage of table rows: its text and where its first row stands. */
export interface RowPassage {
  content: string;
  metadata: Record<string, unknown>;
}

/** A fallback column name the sheet reader gives a header-less column ("Column H"). */
const FALLBACK_COLUMN = /^(Column [A-Z]{1,3}): /;

/**
 * Reads a sheet's row passages (shared/parse/xlsx/sheet-section.ts: rows separated by a blank line,
 * each cell a "column: value" line) back into rows aligned with `columns`. A line is matched to the
 * longest column name it starts with, so a value holding ": " stays whole; a line of no column
 * continues the cell above (a long value split across lines).
 *
 * @example readSheetRows('Scores', ['Team', 'Cups'], [{ content: 'Team: Leafs\nCups: 13', metadata: { firstRow: 2 } }]).rows[0].cells // ['Leafs', '13']
 */
export function readSheetRows(
  title: string,
  header: readonly string[],
  passages: readonly RowPassage[],
): Table {
  const columns = [...header];
  const byLength = columns.map((name, i) => ({ name, i })).sort((a, b) => b.name.length - a.name.length);
  const rows: TableRow[] = [];
  passages.forEach((passage, index) => {
    let number = Number(passage.metadata.firstRow ?? rows.length + 1);
    for (const block of passage.content.split(/\n\s*\n/)) {
      const cells: string[] = columns.map(() => '');
      let last = -1;
      for (const line of block.split('\n')) {
        // Two columns may share a name: the later one takes the line once the earlier is filled.
        const named = byLength.filter(({ name }) => line.startsWith(`${name}: `));
        const longest = named[0]?.name.length;
        const same = named.filter((c) => c.name.length === longest).sort((a, b) => a.i - b.i);
        let column = same.find((c) => c.i > last) ?? same[0];
        if (!column) {
          const fallback = FALLBACK_COLUMN.exec(line)?.[1];
          if (fallback) {
            columns.push(fallback);
            byLength.unshift({ name: fallback, i: columns.length - 1 });
            column = byLength[0];
          }
        }
        if (column) {
          cells[column.i] = line.slice(column.name.length + 2).trim();
          last = column.i;
        } else if (last >= 0) cells[last] = `${cells[last]} ${line.trim()}`;
      }
      if (cells.some(Boolean)) rows.push({ number, cells, passage: index });
      number += 1;
    }
  });
  for (const row of rows) while (row.cells.length < columns.length) row.cells.push('');
  return { title, columns, rows };
}

/**
 * Reads a Markdown pipe table (the text of a table node from .docx, .html, .pdf, …): its first row
 * names the columns, each later row is a row.
 */
export function readPipeTable(title: string, content: string, passage = 0): Table | undefined {
  const [head, ...rest] = readPipeRows(content);
  if (!head) return undefined;
  const columns = head.map((name, i) => name || `Column ${i + 1}`);
  const rows: TableRow[] = rest.map((cells, i) => ({ number: i + 1, cells, passage }));
  return rows.length ? { title, columns, rows } : undefined;
}
