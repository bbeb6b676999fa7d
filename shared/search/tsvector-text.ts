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
  while (i < n) {
    while (i < n && text[i] === ' ') i++;
    if (i >= n) break;
    let lexeme = '';
    if (text[i] === "'") {
      i++;
      while (i < n) {
        const ch = text[i];
        if (ch === '\\' && i + 1 < n) {
          lexeme += text[i + 1];
          i += 2;
        } else if (ch === "'" && text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else if (ch === "'") {
          i++;
          break;
        } else {
          lexeme += ch;
          i++;
        }
      }
    } else {
      // Postgres always quotes lexemes on output; accept bare ones for robustness.
      while (i < n && text[i] !== ' ' && text[i] !== ':') lexeme += text[i++];
    }
    let positions = 0;
    let title = 0;
    if (text[i] === ':') {
      i++;
      positions = 1;
      while (i < n && text[i] !== ' ') {
        if (text[i] === ',') positions++;
        else if (text[i] === 'A') title++;
        i++;
      }
    }
    const held = counts.get(lexeme) ?? { tf: 0, titleTf: 0 };
    counts.set(lexeme, { tf: held.tf + Math.max(positions, 1), titleTf: held.titleTf + title });
  }
  return counts;
}
