import type { OrderedLine } from './columns.ts';

/** At least this many rows of a table beside as many lines of a paragraph make a floating table. */
const MIN_ROWS = 3;
/** The lines of the paragraph start within this many font sizes of each other. */
const ALIGN = 1;
/** And all but its last line reach this share of the widest (a paragraph fills its width). */
const FILL = 0.75;
/** What ends a sentence at the end of a line (closing quotes and brackets may follow). */
const SENTENCE_END = /[.!?。！？:：;；]["'”’)\]）」]*$/u;

/** Words of two or more letters, or CJK characters (each a word). */
function wordCount(text: string): number {
  return (text.match(/\p{L}{2,}|\p{Script=Han}/gu) ?? []).length;
}

/** Whether line `next` goes on with the sentence that line `previous` left open. */
function continues(previous: string, next: string): boolean {
  if (/^\p{Ll}/u.test(next)) return true;
  // Scripts without case: a line that ends no sentence goes on.
  return !/\p{Lu}|\p{Ll}/u.test(next.charAt(0)) && !SENTENCE_END.test(previous);
}

/**
 * Whether the pieces (one per baseline, top down) are the lines of one paragraph rather than a
 * column of cells: wordy, starting at one x, filling their width but for the last, and running on
 * from line to line (lower-case starts, or no sentence end where the script has no case) but for
 * about one pair in three.
 */
function isParagraph(pieces: readonly OrderedLine[]): boolean {
  const lines = pieces.map((piece) => piece.line);
  if (lines.length < MIN_ROWS || lines.some((line) => wordCount(line.text) < 3)) return false;
  const size = Math.max(...lines.map((line) => line.size));
  const xs = lines.map((line) => line.x);
  if (Math.max(...xs) - Math.min(...xs) > size * ALIGN) return false;
  const widest = Math.max(...lines.map((line) => line.right - line.x));
  if (lines.slice(0, -1).some((line) => line.right - line.x < widest * FILL)) return false;
  let breaks = 0;
  for (let i = 1; i < lines.length; i++) {
    if (!continues(lines[i - 1]?.text ?? '', lines[i]?.text ?? '')) breaks++;
  }
  return breaks <= Math.max(1, Math.floor((lines.length - 1) / 3));
}

/** Consecutive lines of one baseline and column: a row of cells when there are two or more. */
function baselines(lines: readonly OrderedLine[]): OrderedLine[][] {
  const groups: OrderedLine[][] = [];
  for (const entry of lines) {
    const group = groups.at(-1);
    const first = group?.[0];
    if (group && first && first.line.row === entry.line.row && first.column === entry.column)
      group.push(entry);
    else groups.push([entry]);
  }
  return groups;
}

/**
 * Takes the paragraph that wraps beside a floating table out of the table's rows. A table floating
 * at a margin shares its baselines with the lines of the paragraph beside it, so each row ends (or,
 * floating right, starts) with a line of that paragraph; read as cells, the paragraph becomes a
 * column of the table. When the last (or first) pieces of three or more consecutive rows read as the
 * lines of one paragraph (`isParagraph`), they are moved after the table, in order, marked `beside`
 * (the paragraph goes on under the table from further left).
 */
export function separateFloatingTables(lines: readonly OrderedLine[]): OrderedLine[] {
  const groups = baselines(lines);
  const out: OrderedLine[] = [];
  for (let i = 0; i < groups.length; ) {
    let end = i;
    while ((groups[end]?.length ?? 0) >= 2) end++;
    if (end - i < MIN_ROWS) {
      end = Math.max(end, i + 1);
      out.push(...groups.slice(i, end).flat());
      i = end;
      continue;
    }
    const rows = groups.slice(i, end);
    const side = [(row: OrderedLine[]) => row.length - 1, () => 0].find((at) =>
      isParagraph(rows.map((row) => row[at(row)] as OrderedLine)),
    );
    if (!side) out.push(...rows.flat());
    else {
      const beside: OrderedLine[] = [];
      for (const row of rows) {
        const at = side(row);
        out.push(...row.filter((_, j) => j !== at));
        beside.push({ ...(row[at] as OrderedLine), beside: true });
      }
      out.push(...beside);
    }
    i = end;
  }
  return out;
}
