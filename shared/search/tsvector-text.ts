/** A lexeme's occurrences in one tsvector: all of them, and those weighted A (title, section path). */
export interface TermCount {
  tf: number;
  titleTf: number;
}

/**
 * Term frequencies from a tsvector's text output (`'budget':1A,4B 'it''s':2`): each lexeme with the
 * number of its positions (1 when it has none, as Postgres ranks it) and how many of them carry
 * weight A.
 *
 * @example parseTsvectorCounts("'a':1A,3 'b':2") // Map { 'a' => { tf: 2, titleTf: 1 }, 'b' => { tf: 1, titleTf: 0 } }
 */
export function parseTsvectorCounts(text: string): Map<string, TermCount> {
  const counts = new Map<string, TermCount>();
  let i = 0;
  const n = text.length;
  // Sliced, not built a character at a time: the in-memory index parses every leaf's tsvector.
  while (i < n) {
    while (i < n && text.charCodeAt(i) === SPACE) i++;
    if (i >= n) break;
    let lexeme: string;
    if (text.charCodeAt(i) === QUOTE) {
      const read = quotedLexeme(text, i + 1);
      lexeme = read.lexeme;
      i = read.end;
    } else {
      // Postgres always quotes lexemes on output; accept bare ones for robustness.
      const start = i;
      while (i < n && text.charCodeAt(i) !== SPACE && text.charCodeAt(i) !== COLON) i++;
      lexeme = text.slice(start, i);
    }
    let positions = 0;
    let title = 0;
    if (text.charCodeAt(i) === COLON) {
      i++;
      positions = 1;
      for (let c = text.charCodeAt(i); i < n && c !== SPACE; c = text.charCodeAt(++i)) {
        if (c === COMMA) positions++;
        else if (c === WEIGHT_A) title++;
      }
    }
    const held = counts.get(lexeme);
    if (held) {
      held.tf += Math.max(positions, 1);
      held.titleTf += title;
    } else counts.set(lexeme, { tf: Math.max(positions, 1), titleTf: title });
  }
  return counts;
}

const SPACE = 32;
const QUOTE = 39;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const WEIGHT_A = 65;

/** A quoted lexeme from just after its opening quote: `''` and `\x` unescaped, and where it ends. */
function quotedLexeme(text: string, from: number): { lexeme: string; end: number } {
  let lexeme = '';
  let start = from;
  let i = from;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH && i + 1 < n) {
      lexeme += text.slice(start, i) + text[i + 1];
      i += 2;
      start = i;
    } else if (c === QUOTE && text.charCodeAt(i + 1) === QUOTE) {
      lexeme += `${text.slice(start, i)}'`;
      i += 2;
      start = i;
    } else if (c === QUOTE) {
      return { lexeme: lexeme + text.slice(start, i), end: i + 1 };
    } else i++;
  }
  return { lexeme: lexeme + text.slice(start, i), end: i };
}
