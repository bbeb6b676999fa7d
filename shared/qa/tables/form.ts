import type { TablePlan } from './plan.ts';
import { contentWords, stem, words } from './question.ts';
import { cellNumber, type Table, type TableRow } from './table.ts';

/** One labelled value of a form: "VIN" → "1C4RJFBG2NC123456", in row `row` of the table. */
export interface FormField {
  label: string;
  value: string;
  /** Index into `table.rows`; -1 for a pair the header row holds. */
  row: number;
}

/** A label holds a few words and no number of its own ("Claim #", "Primary Contact:"). */
const MAX_LABEL_WORDS = 5;

/** A header left empty (read back as "Column 3" from a pipe table). */
const unnamed = (table: Table, column: number) => {
  const name = table.columns[column] ?? '';
  return name === '' || name === `Column ${column + 1}`;
};
const labelOf = (cell: string) => cell.replace(/[:：]\s*$/, '').trim();
const isLabel = (cell: string) =>
  cell !== '' && cellNumber(cell) === undefined && words(cell).length <= MAX_LABEL_WORDS;

/** A row's filled cells read as label/value pairs, left to right; undefined when they do not pair up. */
function rowPairs(cells: readonly string[]): { label: string; value: string; column: number }[] | undefined {
  const filled = cells.flatMap((cell, column) => (cell ? [{ cell, column }] : []));
  if (filled.length % 2 !== 0) return undefined;
  const pairs: { label: string; value: string; column: number }[] = [];
  for (let i = 0; i < filled.length; i += 2) {
    const label = filled[i];
    const value = filled[i + 1];
    if (!label || !value || !isLabel(label.cell)) return undefined;
    pairs.push({ label: labelOf(label.cell), value: value.cell, column: value.column });
  }
  return pairs;
}

/**
 * The fields of a form, in reading order: a table laid out as label/value pairs side by side
 * ("Insured name | Gabriel Diaz | | Year | 2022"), the layout of estimates, invoices and booking
 * sheets. It is one when its header leaves a column unnamed (a table of records names them all),
 * every row's filled cells pair up as a label then its value, and no label comes twice. A header
 * row that itself holds values where the rows do ("Insured name | Bruce Wayne | | Year | 2025") is
 * read as the form's first row; one that only names its halves ("Customer Information") is not.
 * Undefined when the table is not a form.
 */
export function formFields(table: Table): FormField[] | undefined {
  if (!table.columns.some((_, c) => unnamed(table, c))) return undefined;
  const fields: FormField[] = [];
  const valueColumns = new Set<number>();
  for (const [r, row] of table.rows.entries()) {
    const pairs = rowPairs(row.cells);
    if (!pairs) return undefined;
    for (const p of pairs) {
      fields.push({ label: p.label, value: p.value, row: r });
      valueColumns.add(p.column);
    }
  }
  const header = table.columns.map((name, c) => (unnamed(table, c) ? '' : name));
  const headerPairs = rowPairs(header);
  if (headerPairs?.some((p) => valueColumns.has(p.column))) {
    fields.unshift(...headerPairs.map((p) => ({ label: p.label, value: p.value, row: -1 })));
  }
  const labels = fields.map((f) => f.label.toLowerCase());
  if (fields.length === 0 || new Set(labels).size !== labels.length) return undefined;
  return fields;
}

/**
 * The field a question asks for: the one whose label's words the question holds, all of them
 * (stemmed), the longest such label first. Undefined when the question names no label.
 *
 * @example askedField('What is the VIN of Gabriel Diaz’s Jeep?', fields) // { label: 'VIN', value: '1C4RJFBG2NC123456', row: 4 }
 */
export function askedField(question: string, fields: readonly FormField[]): FormField | undefined {
  const asked = new Set(words(question).map(stem));
  let best: { field: FormField; size: number } | undefined;
  for (const field of fields) {
    const label = contentWords(field.label).map(stem);
    if (label.length === 0 || !label.every((w) => asked.has(w))) continue;
    if (!best || label.length > best.size) best = { field, size: label.length };
  }
  return best?.field;
}

/** A form's row as it is quoted: its label/value pairs ("Email: gabriel@contoso.com · VIN: 1C4R…"). */
export function formRowText(fields: readonly FormField[], row: TableRow, table: Table): string {
  const r = table.rows.indexOf(row);
  return fields
    .filter((f) => f.row === r)
    .map((f) => `${f.label}: ${f.value}`)
    .join(' · ');
}

/**
 * The plan for a question over a form: the value of the field it names ("What is the VIN?" →
 * "1C4RJFBG2NC123456"), its row cited. Undefined when the table is no form or no label is named.
 */
export function planForm(question: string, table: Table): TablePlan | undefined {
  const fields = formFields(table);
  const field = fields && askedField(question, fields);
  if (!field) return undefined;
  return {
    shape: 'field',
    result: [field.value],
    how: `The value of ‘${field.label}’ in the form.`,
    rows: [Math.max(field.row, 0)],
  };
}
