import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import type { Line, PageFonts, TextRun } from './layout.ts';
import { joinText } from './script.ts';

/** Runs whose baselines differ by less than this share a line (superscripts included). */
const SAME_LINE = 0.45;
/** A horizontal gap wider than this many font sizes splits a baseline into separate lines (columns, cells). */
const COLUMN_GAP = 1.6;
/** A gap wider than this many font sizes between two runs is a word break. */
const WORD_GAP = 0.15;

function lineOf(runs: TextRun[], fonts: PageFonts, row: number): Line | undefined {
  let text = '';
  let previous: TextRun | undefined;
  const sizeChars = new Map<number, number>();
  let chars = 0;
  let boldChars = 0;
  for (const run of runs) {
    const spaced = previous !== undefined && run.x - (previous.x + previous.width) > WORD_GAP * run.size;
    text = joinText(text, run.text, spaced);
    const visible = run.text.replace(/\s+/g, '').length;
    chars += visible;
    if (fonts.get(run.font)?.bold) boldChars += visible;
    const size = Math.round(run.size * 2) / 2;
    sizeChars.set(size, (sizeChars.get(size) ?? 0) + visible);
    previous = run;
  }
  text = collapseSpaces(text);
  const first = runs[0];
  const last = runs.at(-1);
  if (text === '' || !first || !last) return undefined;
  let size = first.size;
  let most = -1;
  for (const [candidate, count] of sizeChars) {
    if (count > most) [size, most] = [candidate, count];
  }
  const y = Math.min(...runs.filter((run) => run.text.trim() !== '').map((run) => run.y));
  return {
    text,
    x: first.x,
    right: last.x + last.width,
    y,
    size,
    bold: chars > 0 && boldChars >= chars * 0.9,
    row,
  };
}

const MARKER =
  /^(?:[•◦▪▫●○■□►▶‣⁃∙·*–—-]|\(?[a-z]{1,3}[.)]|\(?\d{1,3}(?:\.\d{1,3})*[.)]|\d{1,3}(?:\.\d{1,3})+)$/i;

/** A tab after a list marker or heading number is at most this many font sizes wide. */
const MARKER_GAP = 4;

/**
 * A list marker or heading number set apart from its text by a tab stays on the text's line; a
 * number after it, or text further away than a tab, is the next cell of a row ("1.1" and "1.5" in
 * two columns, a paragraph beside a floating table), not its text.
 */
function isMarker(runs: TextRun[], next: TextRun, gap: number): boolean {
  const text = runs
    .map((run) => run.text)
    .join('')
    .trim();
  return (
    text.length <= 8 &&
    MARKER.test(text) &&
    gap <= MARKER_GAP * next.size &&
    !/^[-+−]?\d/.test(next.text.trim())
  );
}

function splitAtGaps(runs: TextRun[], fonts: PageFonts, into: Line[], row: number): void {
  runs.sort((a, b) => a.x - b.x);
  let start = 0;
  let right = -Infinity;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i] as TextRun;
    const gap = run.x - right;
    if (
      i > start &&
      run.text.trim() !== '' &&
      gap > COLUMN_GAP * run.size &&
      !isMarker(runs.slice(start, i), run, gap)
    ) {
      const line = lineOf(runs.slice(start, i), fonts, row);
      if (line) into.push(line);
      start = i;
    }
    if (run.text.trim() !== '') right = Math.max(right, run.x + run.width);
  }
  const line = lineOf(runs.slice(start), fonts, row);
  if (line) into.push(line);
}

/**
 * Groups a page's runs into lines, top to bottom and left to right. Runs on one baseline (within
 * about half a font size, so superscripts stay in their line) form a line unless a wide gap separates
 * them, in which case each side is its own line (the columns of a two-column page, table cells).
 */
export function groupLines(runs: readonly TextRun[], fonts: PageFonts): Line[] {
  const sorted = [...runs].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Line[] = [];
  let cluster: TextRun[] = [];
  let rows = 0;
  let top = 0;
  let size = 0;
  for (const run of sorted) {
    if (cluster.length > 0 && top - run.y > SAME_LINE * Math.max(size, run.size)) {
      splitAtGaps(cluster, fonts, lines, rows++);
      cluster = [];
    }
    if (cluster.length === 0) {
      top = run.y;
      size = run.size;
    }
    cluster.push(run);
    if (run.text.trim() !== '') size = Math.max(size, run.size);
  }
  if (cluster.length > 0) splitAtGaps(cluster, fonts, lines, rows++);
  return lines;
}
