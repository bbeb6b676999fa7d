import type { Line } from './layout.ts';

/** A line in reading order, with the column it belongs to (0 when the page has one column or it spans both). */
export interface OrderedLine {
  line: Line;
  column: number;
  /** A line of a paragraph that wraps beside a floating table (`separateFloatingTables`). */
  beside?: boolean;
}

const MIN_LINES = 6;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The x of a gutter that few lines cross and that has enough lines on both sides, if any. */
function findGutter(lines: readonly Line[], left: number, width: number): number | undefined {
  const cells = Math.max(1, Math.ceil(width));
  const coverage = new Int32Array(cells + 2);
  for (const line of lines) {
    const from = Math.max(0, Math.floor(line.x - left));
    const to = Math.min(cells, Math.ceil(line.right - left));
    if (to <= from) continue;
    coverage[from] = (coverage[from] ?? 0) + 1;
    coverage[to] = (coverage[to] ?? 0) - 1;
  }
  let best: number | undefined;
  let bestCount = Infinity;
  let running = 0;
  const middle = cells / 2;
  for (let x = 0; x < cells; x++) {
    running += coverage[x] ?? 0;
    if (x < cells * 0.3 || x > cells * 0.7) continue;
    const closer = best === undefined || Math.abs(x - middle) < Math.abs(best - middle);
    if (running < bestCount || (running === bestCount && closer)) {
      best = x;
      bestCount = running;
    }
  }
  if (best === undefined || bestCount > lines.length * 0.2) return undefined;
  const gutter = left + best;
  const leftSide = lines.filter((line) => line.right <= gutter);
  const rightSide = lines.filter((line) => line.x >= gutter);
  if (leftSide.length < 3 || rightSide.length < 3) return undefined;
  // Columns are filled with text: most lines of each side run across most of its width (short list
  // items or a label beside its value do not make columns).
  const fill = (side: Line[], from: number, to: number) =>
    median(side.map((line) => line.right - line.x)) >= (to - from) * 0.5;
  if (!fill(leftSide, Math.min(...leftSide.map((l) => l.x)), gutter)) return undefined;
  if (!fill(rightSide, gutter, Math.max(...rightSide.map((l) => l.right)))) return undefined;
  // Both sides must run alongside each other, not be a label column above a block of text.
  const span = (side: Line[]) =>
    [Math.min(...side.map((l) => l.y)), Math.max(...side.map((l) => l.y))] as const;
  const [leftLow, leftHigh] = span(leftSide);
  const [rightLow, rightHigh] = span(rightSide);
  const overlap = Math.min(leftHigh, rightHigh) - Math.max(leftLow, rightLow);
  const shorter = Math.min(leftHigh - leftLow, rightHigh - rightLow);
  return overlap > 0 && overlap >= shorter * 0.5 ? gutter : undefined;
}

/**
 * Puts a page's lines (top to bottom) in reading order. When the page has two clearly separated
 * columns (a vertical gutter near the middle that few lines cross), each band between spanning lines
 * is read left column first, then right column, instead of interleaving the columns line by line.
 *
 * @param box the page's [left, bottom, right, top]
 */
export function readingOrder(lines: readonly Line[], box: readonly number[]): OrderedLine[] {
  const left = box[0] ?? 0;
  const width = (box[2] ?? 612) - left;
  const gutter = lines.length >= MIN_LINES ? findGutter(lines, left, width) : undefined;
  if (gutter === undefined) return lines.map((line) => ({ line, column: 0 }));
  const ordered: OrderedLine[] = [];
  let leftColumn: OrderedLine[] = [];
  let rightColumn: OrderedLine[] = [];
  const flush = () => {
    ordered.push(...leftColumn, ...rightColumn);
    leftColumn = [];
    rightColumn = [];
  };
  for (const line of lines) {
    if (line.right <= gutter) leftColumn.push({ line, column: 1 });
    else if (line.x >= gutter) rightColumn.push({ line, column: 2 });
    else {
      flush();
      ordered.push({ line, column: 0 });
    }
  }
  flush();
  return ordered;
}
