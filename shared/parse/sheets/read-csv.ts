import type { SheetCell, SheetRow } from '../xlsx/sheet-layout.ts';
import { sheetCell } from './sheet-cell.ts';

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** The separators a CSV may use, and which wins a tie (SheetJS's `guess_sep`). */
const SEPARATOR_WEIGHTS: ReadonlyMap<number, number> = new Map([
  [0x2c, 3],
  [0x09, 2],
  [0x3b, 1],
  [0x7c, 0],
]);

/** The separator used most outside quotes in the first 1,024 characters; a comma when none is. */
function guessSeparator(head: string): number {
  const counts = new Map<number, number>();
  let quoted = false;
  for (let i = 0; i < head.length; i++) {
    const code = head.charCodeAt(i);
    if (code === QUOTE) quoted = !quoted;
    else if (!quoted && SEPARATOR_WEIGHTS.has(code)) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  let best = 0x2c;
  let bestCount = -1;
  for (const [code, weight] of SEPARATOR_WEIGHTS) {
    const count = counts.size ? (counts.get(code) ?? -1) : weight;
    if (count > bestCount || (count === bestCount && weight > (SEPARATOR_WEIGHTS.get(best) ?? 0))) {
      best = code;
      bestCount = count;
    }
  }
  return best;
}

/**
 * First bytes (of the text as UTF-8) that make SheetJS read a text as another format (HTML/XML,
 * dBASE, Lotus, RTF, a "plain text" table, an .xls): such text is left to SheetJS.
 */
const OTHER_FORMAT_LEADS = new Set([
  0x00, 0x02, 0x03, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x3c, 0x7b, 0x83, 0x89, 0x8b, 0x8c, 0xd0, 0xef, 0xf5,
  0xff,
]);

/** Leading text SheetJS reads as TIFF, SYLK, DIF or SocialCalc (see its `readSync`). */
const OTHER_FORMAT_PREFIXES = ['II*\u0000', 'ID', 'TABL', 'socialcalc:version:'];

/** The first four bytes of a text in UTF-8. */
function leadingBytes(text: string): number[] {
  return [...Buffer.from(text.slice(0, 4), 'utf8').subarray(0, 4)];
}

/**
 * Whether SheetJS reads this text as delimited values (its `dsv_to_sheet_str`) rather than as
 * another format it recognizes by the first bytes. Only such text is read by `readCsv`.
 */
export function readsAsDelimited(text: string): boolean {
  const [first = -1, , third = -1, fourth = -1] = leadingBytes(text);
  if (OTHER_FORMAT_LEADS.has(first)) return false;
  // dBASE files start with their version byte ('0' and '1' among them) and a date.
  if ((first === 0x30 || first === 0x31) && third <= 12 && fourth <= 31) return false;
  // A ZIP archive: "PK" and two bytes below 9.
  if (text.startsWith('PK') && third < 9 && fourth < 9) return false;
  return !OTHER_FORMAT_PREFIXES.some((prefix) => text.startsWith(prefix));
}

/**
 * Reads comma-, tab-, semicolon- or pipe-separated text into rows of cells exactly as SheetJS
 * does with `raw: true` (every cell text as written): the separator from a `sep=` first line, the
 * one given, or the one most used outside quotes in the first 1,024 characters; a cell starting
 * with a quote runs to its closing quote (separators and line breaks inside kept), its outer
 * quotes dropped and doubled quotes halved; CRLF, CR or LF end a row. Rows come one at a time,
 * with the empty rows between stored ones, never trailing empty rows (they are not stored).
 *
 * @example [...readCsv('a,b\n1,2\n')].map((row) => row.cells.map((cell) => cell.text)) // [['a', 'b'], ['1', '2']]
 */
export function* readCsv(input: string, separator?: string): Iterable<SheetRow> {
  let text = input;
  let sep: number;
  if (text.startsWith('sep=')) {
    const after = text.charCodeAt(5);
    if (after === CR && text.charCodeAt(6) === LF) {
      sep = text.charCodeAt(4);
      text = text.slice(7);
    } else if (after === CR || after === LF) {
      sep = text.charCodeAt(4);
      text = text.slice(6);
    } else sep = guessSeparator(text.slice(0, 1024));
  } else sep = separator ? separator.charCodeAt(0) : guessSeparator(text.slice(0, 1024));

  // A cell not starting with a quote ends at the first separator or line break: found by indexOf
  // (a quote, like any separator SheetJS does not take for one, is an ordinary character).
  const length = text.length;
  const sepText = Number.isNaN(sep) || sep === QUOTE ? undefined : String.fromCharCode(sep);
  const find = (char: string | undefined, from: number) => {
    const at = char === undefined ? -1 : text.indexOf(char, from);
    return at < 0 ? length : at;
  };
  let nextSep = -1;
  let nextLf = -1;
  let nextCr = -1;

  let row = 0;
  let cells: SheetCell[] = [];
  let stored = false;
  /** Empty rows seen since the last stored one: yielded only if a stored row follows. */
  let gap = 0;
  let column = 0;
  let start = 0;
  while (start < length) {
    let end = start;
    if (text.charCodeAt(start) === QUOTE) {
      // A quoted cell: separators and line breaks count only outside its quotes.
      let quoted = false;
      for (; end < length; end++) {
        const code = text.charCodeAt(end);
        if (code === QUOTE) quoted = !quoted;
        else if (!quoted && (code === sep || code === LF || code === CR)) break;
      }
    } else {
      if (nextSep < start) nextSep = find(sepText, start);
      if (nextLf < start) nextLf = find('\n', start);
      if (nextCr < start) nextCr = find('\r', start);
      end = Math.min(nextSep, nextLf, nextCr);
    }
    // What ended the cell: its separator, a line break, or the text's end (its last character).
    const code = text.charCodeAt(end < length ? end : length - 1);
    // A CRLF's CR stays in the cell's slice and goes with the trailing CR every cell loses.
    const stop = end < length && code === CR && text.charCodeAt(end + 1) === LF ? end + 1 : end;
    let value = text.slice(start, text.charCodeAt(stop - 1) === CR && stop > start ? stop - 1 : stop);
    if (value.length > 1 && value.charCodeAt(0) === QUOTE && value.charCodeAt(value.length - 1) === QUOTE) {
      value = value.slice(1, -1);
      if (value.includes('""')) value = value.replaceAll('""', '"');
    } else if (value === '"') value = '';
    if (value.length > 0) {
      stored = true;
      const cell = sheetCell(column + 1, value, true);
      if (cell) cells.push(cell);
    }
    start = stop + 1;
    if (code === sep && end < length) {
      column++;
      continue;
    }
    column = 0;
    if (stored) {
      for (; gap > 0; gap--) yield { number: row - gap + 1, cells: [] };
      yield { number: row + 1, cells };
      cells = [];
      stored = false;
    } else gap++;
    row++;
  }
  // The text ended after a separator (or inside quotes): its last row still holds its cells.
  if (stored) {
    for (; gap > 0; gap--) yield { number: row - gap + 1, cells: [] };
    yield { number: row + 1, cells };
  }
}
