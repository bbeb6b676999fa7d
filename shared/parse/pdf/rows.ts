import type { OrderedLine } from './columns.ts';
import { joinLines } from './join-lines.ts';
import type { Line } from './layout.ts';

/**
 * A line in reading order; `cells` (and the left edge of each, `cellXs`) when it came from a
 * baseline split at wide gaps (a table row).
 */
export interface RowLine extends OrderedLine {
  cells?: string[];
  cellXs?: number[];
}

/**
 * Joins consecutive lines of one baseline and column (split at wide gaps) into one line whose
 * `cells` are their texts: a row of a table, or a label and its value.
 */
export function mergeRows(lines: readonly OrderedLine[]): RowLine[] {
  const out: RowLine[] = [];
  for (const entry of lines) {
    const last = out.at(-1);
    if (last && !entry.beside && last.line.row === entry.line.row && last.column === entry.column) {
      const cells = last.cells ?? [last.line.text];
      const cellXs = last.cellXs ?? [last.line.x];
      cells.push(entry.line.text);
      cellXs.push(entry.line.x);
      last.cells = cells;
      last.cellXs = cellXs;
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

/** Where a table's columns start and where its rows sit, to tell a wrapped cell from a new row. */
export interface TableShape {
  /** The left edge of each column: the leftmost start of its cells among the fullest rows so far. */
  columns: number[];
  /** The baseline of each row's first line. */
  rowTops: number[];
  /** The column of each cell of the last row. */
  lastRow: number[];
}

/** A cell's text may start up to this many font sizes left of its column's start (centred or right-aligned text moves right). */
const ALIGN_SLACK = 0.5;
/** A wrapped cell's next line sits within this many font sizes of the line above, and at least the smaller number below it. */
const WRAP_GAP = 2;
const MIN_WRAP_GAP = 0.8;
/** Lines of one row are closer together than this share of the distance between rows. */
const ROW_PITCH_SHARE = 0.75;

function columnOf(columns: readonly number[], x: number, size: number): number {
  let found = -1;
  columns.forEach((start, i) => {
    if (start <= x + size * ALIGN_SLACK) found = i;
  });
  return found;
}

/** The shape of a table whose first row has cells starting at `cellXs`, on baseline `y`. */
export function startTable(cellXs: readonly number[], y: number): TableShape {
  return { columns: [...cellXs], rowTops: [y], lastRow: cellXs.map((_, i) => i) };
}

/** Notes a new row of the table (its cells' left edges, its baseline). */
export function addRow(shape: TableShape, cellXs: readonly number[], y: number, size: number): void {
  if (cellXs.length > shape.columns.length) shape.columns = [...cellXs];
  else if (cellXs.length === shape.columns.length) {
    shape.columns = shape.columns.map((x, i) => Math.min(x, cellXs[i] ?? x));
  }
  shape.rowTops.push(y);
  shape.lastRow = cellXs.map((x) => Math.max(0, columnOf(shape.columns, x, size)));
}

function pitchAllows(shape: TableShape, gap: number): boolean {
  const pitches = shape.rowTops.slice(1).map((top, i) => (shape.rowTops[i] ?? top) - top);
  return pitches.length > 0 && gap < Math.min(...pitches) * ROW_PITCH_SHARE;
}

/**
 * Appends a line to the cells of the table's last row when it is the next line of cells that
 * wrapped, and says whether it did. It is when every piece of the line (`pieces`, starting at
 * `pieceXs`) starts in a distinct column where the last row has a cell, it does not fill every
 * column, it is the next line below the line above (`gap`, in PDF units: not a baseline squeezed
 * between two, as text floating beside a table has), and either it leaves the first
 * column empty or the table's rows stand clearly further apart than this gap.
 */
export function continueRow(
  shape: TableShape,
  row: string[],
  line: Line,
  pieces: readonly string[],
  pieceXs: readonly number[],
  gap: number,
): boolean {
  if (
    pieceXs.length >= shape.columns.length ||
    gap > line.size * WRAP_GAP ||
    gap < line.size * MIN_WRAP_GAP
  ) {
    return false;
  }
  const cells = pieceXs.map((x) => shape.lastRow.indexOf(columnOf(shape.columns, x, line.size)));
  if (cells.some((cell, i) => cell < 0 || (i > 0 && cell <= (cells[i - 1] ?? -1)))) return false;
  if (shape.lastRow[cells[0] ?? 0] === 0 && !pitchAllows(shape, gap)) return false;
  cells.forEach((cell, i) => {
    const piece = pieces[i] ?? '';
    row[cell] = row[cell] ? joinLines(row[cell], piece) : piece;
  });
  return true;
}
