import type { OrderedLine } from './columns.ts';
import { separateFloatingTables } from './floats.ts';
import { joinLines } from './join-lines.ts';
import type { TextBlock } from './layout.ts';
import { headingNumber } from './numbering.ts';
import { addRow, continueRow, mergeRows, startTable, type TableShape } from './rows.ts';

/** A list item's start: a bullet, `1.`, `1.2)`, `a.`, `iv.`, `(3)`. */
export const LIST_MARKER =
  /^(?:[•◦▪▫●○■□►▶‣⁃∙·*–—-]\s|\(?\d{1,3}(?:\.\d{1,3})*[.)]\s|\(?(?:[a-z]|[ivxlc]{1,5})[.)]\s|[(（]\d{1,3}[)）])/i;

interface Open {
  block: TextBlock;
  /** Left edge of the block's second line, and the right edge of its longest line. */
  left: number;
  right: number;
  lastX: number;
  lastRight: number;
  lastY: number;
  firstStartsList: boolean;
  /** The block began beside a floating table: it may go on under the table from further left. */
  beside: boolean;
  /** The columns and rows of the block when it is a table. */
  table?: TableShape;
}

/** Baselines further apart than this many font sizes separate paragraphs, when the page does not say. */
const DEFAULT_BREAK = 1.7;

/** The distance between baselines (in font sizes) beyond which a new paragraph starts on this page. */
function usualLeading(lines: readonly OrderedLine[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = (lines[i - 1] as OrderedLine).line;
    const b = (lines[i] as OrderedLine).line;
    const gap = a.y - b.y;
    if (Math.abs(a.size - b.size) < 0.6 && gap > a.size * 0.8 && gap < a.size * 3) gaps.push(gap / a.size);
  }
  if (gaps.length < 3) return DEFAULT_BREAK;
  gaps.sort((x, y) => x - y);
  // The lower quartile is the line spacing even where most gaps are between one-line paragraphs;
  // the bounds keep both single- and double-spaced text working.
  const quartile = gaps[Math.floor(gaps.length / 4)] ?? DEFAULT_BREAK;
  return Math.max(1.5, Math.min(quartile * 1.3, 2.2));
}

/**
 * Groups one page's lines (in reading order) into paragraph blocks. A new block starts at a column
 * change, a change of font size or boldness, a vertical gap wider than the page's usual leading, a
 * first-line indent, a line after one that stopped short of the block's right edge, a list marker or
 * a heading number. Consecutive lines split at wide gaps (rows of cells) form a table block; a line
 * under a row whose pieces start in that row's columns is the next line of its wrapped cells.
 */
export function groupParagraphs(lines: readonly OrderedLine[], page: number): TextBlock[] {
  const leading = usualLeading(lines);
  const blocks: TextBlock[] = [];
  let open: Open | undefined;
  for (const { line, column, cells, cellXs, beside } of mergeRows(separateFloatingTables(lines))) {
    const current = open;
    const table = current?.block.rows;
    const lastRow = table?.at(-1);
    if (
      lastRow &&
      current?.table &&
      column === current.block.column &&
      continueRow(
        current.table,
        lastRow,
        line,
        cells ?? [line.text],
        cellXs ?? [line.x],
        current.lastY - line.y,
      )
    ) {
      current.block.text += ` ${line.text}`;
      current.block.lines++;
      current.lastY = line.y;
      continue;
    }
    if (
      cells &&
      table &&
      current &&
      column === current.block.column &&
      current.lastY - line.y < line.size * 3
    ) {
      table.push(cells);
      if (current.table) addRow(current.table, cellXs ?? [], line.y, line.size);
      current.block.text += `\n${line.text}`;
      current.block.lines++;
      current.lastY = line.y;
      continue;
    }
    const breaks =
      cells !== undefined ||
      table !== undefined ||
      !current ||
      column !== current.block.column ||
      line.y > current.lastY ||
      Math.abs(line.size - current.block.size) > 0.6 ||
      line.bold !== current.block.bold ||
      current.lastY - line.y > line.size * leading ||
      (line.x > current.lastX + line.size * 0.8 && !(current.firstStartsList && current.block.lines === 1)) ||
      (current.block.lines > 1 && line.x < current.left - line.size * 0.8 && !current.beside) ||
      current.lastRight < Math.max(current.right, line.right) - line.size * 4 ||
      LIST_MARKER.test(line.text) ||
      headingNumber(line.text)?.strong === true;
    if (breaks || !current) {
      const block: TextBlock = {
        kind: 'text',
        text: line.text,
        page,
        top: line.y + line.size * 0.8,
        x: line.x,
        size: line.size,
        bold: line.bold,
        lines: 1,
        column,
        ...(cells ? { rows: [cells] } : {}),
      };
      blocks.push(block);
      open = {
        block,
        left: line.x,
        right: line.right,
        lastX: line.x,
        lastRight: line.right,
        lastY: line.y,
        firstStartsList: LIST_MARKER.test(line.text),
        beside: beside === true,
        ...(cells ? { table: startTable(cellXs ?? [], line.y) } : {}),
      };
      continue;
    }
    current.block.text = joinLines(current.block.text, line.text);
    if (current.block.lines === 1) current.left = line.x;
    current.block.lines++;
    current.right = Math.max(current.right, line.right);
    current.lastX = line.x;
    current.lastRight = line.right;
    current.lastY = line.y;
  }
  for (const block of blocks) {
    // One row alone is a line with a wide gap in it (a label and its value), not a table.
    if (block.rows?.length === 1) delete block.rows;
  }
  return blocks;
}
