import { sentenceSpans } from '#shared/text/sentence-spans.ts';

/** Clause marks, then whitespace: the places to cut a sentence too long to keep whole. */
const CLAUSE_END = /[，,、：:；;）)」』”"]/u;

/** End offsets (exclusive) of each sentence in `text`, located in the original so spacing survives. */
function sentenceEnds(text: string): number[] {
  return sentenceSpans(text).map((span) => span.end);
}

/**
 * Cuts evenly into at least two pieces, each boundary the sentence end nearest its ideal position.
 * Returns the text whole when it has no sentence end inside.
 */
function cutAtSentences(text: string, target: number): string[] {
  const parts = Math.max(2, Math.round(text.length / target));
  const ends = sentenceEnds(text).filter((end) => end > 0 && end < text.length);
  const cuts: number[] = [];
  const distance = (end: number, ideal: number) => Math.abs(end - ideal);
  let j = 0;
  for (let k = 1; k < parts && j < ends.length; k++) {
    const ideal = (text.length * k) / parts;
    // Ends are sorted, so the nearest one is found by walking forward: linear over the whole text.
    while (j + 1 < ends.length && distance(ends[j + 1] ?? 0, ideal) <= distance(ends[j] ?? 0, ideal)) j++;
    cuts.push(ends[j] ?? 0);
    j++;
  }
  const pieces: string[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    pieces.push(text.slice(from, cut));
    from = cut;
  }
  return pieces;
}

/** Never cut between the halves of a surrogate pair. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/** Cuts a run with no usable sentence end: after a clause mark, else at whitespace, else hard. */
function cutLong(text: string, target: number, max: number): string[] {
  const pieces: string[] = [];
  const low = Math.floor(target / 2);
  let from = 0;
  while (text.length - from > max) {
    let cut = -1;
    for (const pattern of [CLAUSE_END, /\s/u]) {
      for (let i = from + max - 1; i >= from + low; i--) {
        if (pattern.test(text[i] ?? '')) {
          cut = i + 1;
          break;
        }
      }
      if (cut > 0) break;
    }
    if (cut <= 0) cut = safeCut(text, from + target);
    pieces.push(text.slice(from, cut));
    from = cut;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/**
 * Splits a long text into pieces near `target` characters, none over `max`: at sentence ends where
 * it can (keeping the original wording and spacing), then at clause marks or whitespace, and only
 * as a last resort in the middle of a word.
 *
 * @example splitText('一句。'.repeat(300), 400, 800).length // 2 pieces of ~450 characters
 */
export function splitText(text: string, target: number, max: number): string[] {
  const size = Math.min(target, max);
  const split = (piece: string): string[] => {
    if (piece.trim().length <= max) return [piece];
    const pieces = cutAtSentences(piece, size);
    if (pieces.length > 1) return pieces.flatMap(split);
    return cutLong(piece.trim(), size, max);
  };
  return split(text)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '');
}
