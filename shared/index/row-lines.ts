import { readPipeRows } from '#shared/parse/pipe-table.ts';

/** Between a row's fields: "Team: Toronto Maple Leafs · Stanley Cups: 13". */
const FIELD_SEPARATOR = ' · ';

/**
 * One table row as one line: its "column: value" fields joined by " · ", after the table's title
 * when one is given. How every table row is indexed and quoted, whatever the format it came from.
 *
 * @example rowLine(['Team: Toronto Maple Leafs', 'Stanley Cups: 13'], 'Stanley Cup results') // 'Stanley Cup results — Team: Toronto Maple Leafs · Stanley Cups: 13'
 */
export function rowLine(fields: readonly string[], title?: string): string {
  const row = fields.join(FIELD_SEPARATOR);
  return title ? `${title} — ${row}` : row;
}

/** A row's fields under its header names, empty cells left out (a blank header named by its place). */
export function rowFields(header: readonly string[], cells: readonly string[]): string[] {
  const fields: string[] = [];
  cells.forEach((cell, i) => {
    if (cell) fields.push(`${header[i] || `Column ${i + 1}`}: ${cell}`);
  });
  return fields;
}

/** What the indexer knows of a leaf: its kind of node, its text, its rows (a table node) and metadata. */
export interface TableLeaf {
  type: string;
  text: string;
  rows?: readonly (readonly string[])[];
  metadata?: Record<string, unknown>;
}

/**
 * The text a table's passage is indexed by: one `rowLine` per row, each carrying the table's title
 * and its header names, so a row's key ("Maple Leafs") and its column ("Stanley Cups") meet in one
 * line. A sheet's rows passage (blocks of "column: value" lines, shared/parse/xlsx) and a table node
 * (its rows, else its pipe table: .docx, .pptx, .html, .pdf, …) read the same way. Undefined for any
 * other leaf, which is indexed by its text.
 *
 * @example tableIndexText({ type: 'paragraph', text: 'Team: Leafs\nCups: 13', metadata: { kind: 'rows' } }, 'Results') // 'Results — Team: Leafs · Cups: 13'
 */
export function tableIndexText(leaf: TableLeaf, title: string): string | undefined {
  if (leaf.type === 'paragraph' && leaf.metadata?.kind === 'rows') {
    return leaf.text
      .split(/\n\s*\n/)
      .map((block) => block.split('\n').filter((line) => line.trim()))
      .filter((fields) => fields.length > 0)
      .map((fields) => rowLine(fields, title))
      .join('\n');
  }
  if (leaf.type !== 'table') return undefined;
  const [header, ...rows] = leaf.rows?.length ? leaf.rows : readPipeRows(leaf.text);
  if (!header || rows.length === 0) return undefined;
  const lines = rows.map((cells) => rowFields(header, cells)).filter((fields) => fields.length > 0);
  return lines.length ? lines.map((fields) => rowLine(fields, title)).join('\n') : undefined;
}
