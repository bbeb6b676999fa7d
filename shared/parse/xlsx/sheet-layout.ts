/** One non-empty cell of a row: its column, its text, and whether its value is text (a label). */
export interface SheetCell {
  column: number;
  text: string;
  label: boolean;
}

export interface SheetRow {
  number: number;
  cells: SheetCell[];
}

/**
 * How a sheet's rows are read: a table under a header row (rows above it are notes, such as a
 * title), a form of "label: value" pairs, or rows without a header (columns named by letter).
 */
export type SheetLayout =
  | { kind: 'table'; notes: number; header: number }
  | { kind: 'form' }
  | { kind: 'plain'; notes: number };

/** Rows read before the layout is chosen: enough for a title, a blank line or two and a header. */
export const LAYOUT_LOOKAHEAD = 12;

const COLON = /[:：]$/;

/** A cell ending in a colon followed by another cell on the same row: "Name:" | "Ann". */
function colonPairs(row: SheetRow): number {
  return row.cells.filter((cell, i) => cell.label && COLON.test(cell.text) && i + 1 < row.cells.length)
    .length;
}

/**
 * Chooses a sheet's layout from its first rows (at most `LAYOUT_LOOKAHEAD` non-empty ones).
 * - A form: at least two rows, and a third of them, pair a "Label:" cell with a value.
 * - Otherwise leading one-cell rows above the first wider row are notes (a title, a subtitle);
 *   that wider row is the header when all its cells are text (not numbers, dates or text that
 *   reads as an amount such as "$500,000"), or when its numbers are a run of years after a label
 *   ("Kind | 2019 | 2020 | 2021": years as columns).
 * - Without a header, two-thirds of the wider rows being a text cell and one value also make a form.
 * - A sheet whose rows all have one cell takes its first row as the header when it is text.
 *
 * @example chooseLayout([{ number: 1, cells: [title] }, { number: 2, cells: [name, score] }]) // { kind: 'table', notes: 1, header: 1 }
 */
export function chooseLayout(rows: readonly SheetRow[]): SheetLayout {
  const paired = rows.filter((row) => colonPairs(row) > 0).length;
  if (paired >= 2 && paired * 3 >= rows.length) return { kind: 'form' };
  const wide = rows.findIndex((row) => row.cells.length > 1);
  const first = Math.max(wide, 0);
  const candidate = rows[first];
  if (candidate && (candidate.cells.every((cell) => cell.label) || namesYears(candidate)))
    return { kind: 'table', notes: first, header: first };
  // "Revenue | $50,000" rows without a header: a label and its value on each row.
  const wideRows = rows.filter((row) => row.cells.length > 1);
  const labelled = wideRows.filter((row) => row.cells.length === 2 && row.cells[0]?.label).length;
  if (labelled >= 2 && labelled * 3 >= wideRows.length * 2) return { kind: 'form' };
  return { kind: 'plain', notes: first };
}

/**
 * Whether a row reads as the header of a table whose columns are years: a label first, then at
 * least two four-digit years one step apart (the same step, up to 10, rising or falling). Amounts
 * under a label rarely step so evenly ("Sales | 1210 | 1185" does not).
 */
function namesYears(row: SheetRow): boolean {
  const [head, ...rest] = row.cells;
  if (!head?.label || rest.length < 2) return false;
  const years = rest.map((cell) =>
    !cell.label && /^\d{4}$/.test(cell.text) ? Number(cell.text) : Number.NaN,
  );
  if (years.some((y) => Number.isNaN(y) || y < 1000 || y > 2100)) return false;
  const step = (years[1] ?? 0) - (years[0] ?? 0);
  return (
    step !== 0 && Math.abs(step) <= 10 && years.every((y, i) => i === 0 || y - (years[i - 1] ?? 0) === step)
  );
}

/** A header cell's text as a column name: "Name:" names the column "Name". */
export function columnLabel(text: string): string {
  return text.replace(COLON, '').trim() || text;
}

/**
 * A form row as lines: each "Label:" cell takes the next cell as its value (`Label: value`); a row
 * of exactly a text cell and a value reads the same way without the colon; other cells stand alone.
 */
export function formLines(row: SheetRow): string[] {
  const { cells } = row;
  const [a, b] = cells;
  if (cells.length === 2 && a?.label && b) return [`${a.text.replace(COLON, '')}: ${b.text}`];
  const lines: string[] = [];
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    const next = cells[i + 1];
    if (!cell) continue;
    if (cell.label && COLON.test(cell.text) && next) {
      lines.push(`${cell.text.replace(COLON, '')}: ${next.text}`);
      i++;
    } else {
      lines.push(cell.text);
    }
  }
  return lines;
}
