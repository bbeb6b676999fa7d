import type { TablePlan } from './plan.ts';
import { contentWords, stem, words } from './question.ts';
import { cellNumber, type Table, type TableRow } from './table.ts';

/** One labelled value of a form: "VIN" → "1C4RJFBG2NC123456", in row `row` of the table. */
export interface FormField {
  label: string;
  value: string;
  /** Index into `table.rows`. */
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

/**
 * The label columns of a form: a table laid out as label/value pairs side by side ("Insured name |
 * Gabriel Diaz | | Year | 2022"), the layout of estimates, invoices and booking sheets. A column is
 * a value column when its header is empty and it holds values; its label column is the nearest
 * filled column to its left, whose cells are all labels, each once. Empty when the table is not a
 * form: a table of records names every column in its header.
 */
function valueColumns(table: Table): Map<number, number> {
  const pairs = new Map<number, number>();
  const width = table.columns.length;
  for (let v = 1; v < width; v++) {
    if (!unnamed(table, v)) continue;
    const filled = table.rows.filter((r) => r.cells[v]);
    if (filled.length === 0) continue;
    let l = v - 1;
    while (l > 0 && table.rows.every((r) => !r.cells[l])) l--;
    const labels = filled.map((r) => r.cells[l] ?? '');
    if (!labels.every(isLabel)) return new Map();
    if (new Set(labels.map((x) => labelOf(x).toLowerCase())).size !== labels.length) return new Map();
    pairs.set(v, l);
  }
  return pairs;
}

/** The fields of a form table (`valueColumns`), in reading order; undefined when it is not a form. */
export function formFields(table: Table): FormField[] | undefined {
  const pairs = valueColumns(table);
  if (pairs.size === 0) return undefined;
  const fields: FormField[] = [];
  table.rows.forEach((row, r) => {
    for (const [v, l] of pairs) {
      const value = row.cells[v] ?? '';
      if (value) fields.push({ label: labelOf(row.cells[l] ?? ''), value, row: r });
    }
  });
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
    rows: [field.row],
  };
}
