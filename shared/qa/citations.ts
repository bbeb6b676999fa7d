import { neutralizeMarkers } from '#shared/text/citation-markers.ts';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
/** A quote the answer presents as verbatim, with the `[n]` markers right after it. */
export interface AnswerQuote {
  text: string;
  citations: number[];
}

/** The outcome of checking one quote against its source's text. */
export interface QuoteCheck {
  text: string;
  verified: boolean;
}

const MARKERS = /\[(\d+(?:\s*[,，]\s*\d+)*)\]/g;
/** Quoted spans: “…”, "…", 「…」, 『…』, followed by optional markers. */
const INLINE_QUOTE =
  /(?:“([^”]+)”|"([^"\n]+)"|「([^」]+)」|『([^』]+)』)((?:\s*\[\d+(?:\s*[,，]\s*\d+)*\])*)/g;
/** Shorter quotes are terms in quotation marks ("API"), not claims of verbatim text. */
const MIN_QUOTE_CHARS = 6;
const ELLIPSIS = /\s*(?:…+|\.{3,})\s*/;

/**
 * The answer with its `[n]` markers renumbered 1, 2, ... in order of first use; markers naming no
 * passage (above `count`) are dropped. `order[i]` is the original number of the new `[i + 1]`.
 *
 * @example renumberCitations('A [3]. B [1][3].', 3) // { text: 'A [1]. B [2][1].', order: [3, 1] }
 */
export function renumberCitations(answer: string, count: number): { text: string; order: number[] } {
  const mapping = new Map<number, number>();
  const text = answer.replace(MARKERS, (_whole, list: string) => {
    const numbers = list
      .split(/[,，]/)
      .map((n) => Number(n.trim()))
      .filter((n) => Number.isInteger(n) && n >= 1 && n <= count);
    const renumbered = numbers.map((n) => {
      let next = mapping.get(n);
      if (next === undefined) {
        next = mapping.size + 1;
        mapping.set(n, next);
      }
      return `[${next}]`;
    });
    return [...new Set(renumbered)].join('');
  });
  return { text, order: [...mapping.keys()] };
}

/**
 * The quotes an answer presents as verbatim: blockquote lines (`> text [n]`, the extractive
 * format) and text in quotation marks (“…”, "…", 「…」, 『…』) of at least six characters, each with
 * the markers that follow it.
 */
export function extractQuotes(answer: string): AnswerQuote[] {
  const quotes: AnswerQuote[] = [];
  for (const line of answer.split('\n')) {
    const block = /^\s*>\s?(.*)$/.exec(line);
    if (!block) continue;
    const body = block[1] ?? '';
    const citations = markerNumbers(body);
    const text = body.replace(MARKERS, '').trim();
    if ([...text].length >= MIN_QUOTE_CHARS) quotes.push({ text, citations });
  }
  for (const match of answer.matchAll(INLINE_QUOTE)) {
    const text = (match[1] ?? match[2] ?? match[3] ?? match[4] ?? '').trim();
    if ([...text].length >= MIN_QUOTE_CHARS) quotes.push({ text, citations: markerNumbers(match[5] ?? '') });
  }
  return quotes;
}

/**
 * Checks every quote of the answer against the full text of the passages it cites (a quote without
 * markers: against every passage). A quote is verified when each of its parts between ellipses
 * occurs in one passage, in order, ignoring differences in white space. Returns the checks per
 * citation number, and the quotes that cite nothing and match no passage.
 *
 * @example verifyQuotes('> 预算为500万。 [1]', new Map([[1, '今年预算为500万。']])).byCitation.get(1) // [{ text: '预算为500万。', verified: true }]
 */
export function verifyQuotes(
  answer: string,
  passages: Map<number, string>,
): { byCitation: Map<number, QuoteCheck[]>; unattributed: string[] } {
  const byCitation = new Map<number, QuoteCheck[]>();
  const unattributed: string[] = [];
  const add = (citation: number, check: QuoteCheck) =>
    byCitation.set(citation, [...(byCitation.get(citation) ?? []), check]);
  for (const quote of extractQuotes(answer)) {
    const cited = quote.citations.filter((n) => passages.has(n));
    if (cited.length === 0) {
      const home = [...passages].find(([, content]) => containsQuote(content, quote.text));
      if (home) add(home[0], { text: quote.text, verified: true });
      else unattributed.push(quote.text);
      continue;
    }
    const verified = cited.some((n) => containsQuote(passages.get(n) ?? '', quote.text));
    for (const n of cited) add(n, { text: quote.text, verified });
  }
  return { byCitation, unattributed };
}

/** Whether `quote` occurs in `source` verbatim (white space collapsed; ellipses allow gaps, in order). */
export function containsQuote(source: string, quote: string): boolean {
  const haystack = squash(source);
  let from = 0;
  const parts = quote
    .split(ELLIPSIS)
    .map(squash)
    .filter((part) => part.length > 0);
  if (parts.length === 0) return false;
  for (const part of parts) {
    const at = haystack.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/** Markers in a source are compared in the neutral form the answer quotes them in. */
function squash(text: string): string {
  return collapseSpaces(neutralizeMarkers(text.normalize('NFC')));
}

function markerNumbers(text: string): number[] {
  return [...text.matchAll(MARKERS)].flatMap((m) => (m[1] ?? '').split(/[,，]/).map((n) => Number(n.trim())));
}
