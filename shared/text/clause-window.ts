/**
 * Where a long sentence may be cut between clauses: a web snippet's elisions (" ... "), list and
 * title separators (" · ", " | ", " – "), a semicolon, a comma (not inside a date, "May 29, 2020",
 * or between two capitalised words, "Tampa, Florida"), and a sentence end the sentence splitter keeps whole because a number precedes
 * the period ("on September 7, 2018. The game …").
 */
const CLAUSE_BREAK =
  /\s*(?:\.{3}|…)\s*|\s+[·|•–—-]\s+|(?<=[;；，])\s*|(?<=,)\s+(?=[\p{Ll}(“"'])|(?<=(?:^|\s)[^\s\p{Lu}]\S*,)\s+(?!\d)|(?<=[\d%)]\.)\s+(?=[A-Z"“'(])/gu;
/** A sentence this long or shorter is quoted whole: about one line of the answer. */
export const CLAUSE_CHARS = 100;
/** An opening clause this short is a subject kept with the clause after it. */
const SUBJECT_CHARS = 40;
const ELLIPSIS = '…';

interface Piece {
  start: number;
  end: number;
}

/**
 * The part of a long sentence worth quoting: the run of consecutive clauses, at most `maxChars` long
 * (a single clause may be longer), that `weigh` rates highest (the question terms and the answer it
 * holds), the shorter on a tie; an ellipsis marks each cut. A sentence of at most `maxChars`, or
 * whose clauses weigh nothing, is returned whole. The kept text is verbatim, so the quote still
 * verifies against its passage (ellipses allow gaps).
 *
 * @example
 * clauseWindow('Acme was founded in 1999 ... Its CEO is Ann Lee since 2010.', (p) => (p.includes('CEO') ? 1 : 0), 30)
 * // '… Its CEO is Ann Lee since 2010.'
 */
export function clauseWindow(
  text: string,
  weigh: (clause: string) => number,
  maxChars = CLAUSE_CHARS,
): string {
  if ([...text].length <= maxChars) return text;
  const pieces: Piece[] = [];
  let from = 0;
  const add = (start: number, end: number) => {
    if (text.slice(start, end).trim()) pieces.push({ start, end });
  };
  for (const cut of text.matchAll(CLAUSE_BREAK)) {
    const at = cut.index ?? 0;
    // A trailing "..." of a snippet stays with its clause: it shows the text went on.
    if (at + cut[0].length >= text.length) break;
    add(from, at);
    from = at + cut[0].length;
  }
  add(from, text.length);
  if (pieces.length < 2) return text;

  let best: { first: number; last: number; weight: number; chars: number } | undefined;
  for (let first = 0; first < pieces.length; first += 1) {
    for (let last = first; last < pieces.length; last += 1) {
      const window = text.slice(pieces[first]?.start, pieces[last]?.end);
      const chars = [...window].length;
      if (last > first && chars > maxChars) break;
      const weight = weigh(window);
      if (!best || weight > best.weight || (weight === best.weight && chars < best.chars))
        best = { first, last, weight, chars };
    }
  }
  if (!best || best.weight <= 0) return text;
  const head = pieces[best.first];
  const tail = pieces[best.last];
  if (!head || !tail) return text;
  const kept = text.slice(head.start, tail.end).trim();
  const after = best.last < pieces.length - 1 ? ` ${ELLIPSIS}` : '';
  if (best.first === 0) return `${kept}${after}`;
  // A short opening clause is the sentence's subject ("Toy Story 4, the long-awaited sequel, won …"):
  // the clauses kept tell what it did, so it leads them.
  const opening = text.slice(0, pieces[0]?.end).trim();
  if (best.first === 1 && [...opening].length <= SUBJECT_CHARS)
    return `${text.slice(0, tail.end).trim()}${after}`;
  if ([...opening].length <= SUBJECT_CHARS) return `${opening} ${ELLIPSIS} ${kept}${after}`;
  return `${ELLIPSIS} ${kept}${after}`;
}
