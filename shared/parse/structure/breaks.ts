import { cosine, sumVectors, type Vector } from './vectors.ts';

/** A unit of text to be grouped into pieces: a sentence, a paragraph, a chunk. */
export interface BreakUnit {
  /** Characters. */
  size: number;
  vector: Vector | undefined;
  /** False where a piece may not start (a table, image or code block belongs to the text before it). */
  cutBefore: boolean;
}

export interface BreakWindow {
  /** A boundary becomes a candidate once the piece holds at least this many characters. */
  min: number;
  /** Candidates stop here (unless none was found yet: then the first allowed boundary after it). */
  max: number;
  /** What is left stays whole when it is this size or less. */
  whole: number;
  /** No cut leaves a rest smaller than this. */
  minRest: number;
  /** Units on each side whose summed vectors are compared at a boundary (1 = adjacent units). */
  span: number;
  /** Fewest units in a piece (default 1). */
  minUnits?: number;
}

/**
 * Where to cut a run of units into pieces (docs/spec.md#paragraph-splitting, generalised): from
 * the start of each piece, among the boundaries where it holds between `min` and `max` characters,
 * the one where the text on either side is least similar (a topic shift), the first of equals.
 * Returns the indices of the units that start a new piece (never 0), in order.
 *
 * @example chooseBreaks(sentences, { min: 320, max: 480, whole: 480, minRest: 80, span: 1 }) // [4, 9]
 */
export function chooseBreaks(units: readonly BreakUnit[], window: BreakWindow): number[] {
  const breaks: number[] = [];
  let rest = units.reduce((sum, unit) => sum + unit.size, 0);
  const minUnits = window.minUnits ?? 1;
  let start = 0;
  while (rest > window.whole) {
    let size = 0;
    let best = -1;
    let bestSimilarity = Number.POSITIVE_INFINITY;
    let bestSize = 0;
    for (let i = start; i < units.length - 1; i++) {
      size += units[i]?.size ?? 0;
      const enough = i + 1 - start >= minUnits && units.length - (i + 1) >= minUnits;
      if (enough && size >= window.min && units[i + 1]?.cutBefore && rest - size >= window.minRest) {
        const similarity = boundarySimilarity(units, start, i + 1, window.span);
        if (similarity < bestSimilarity) {
          bestSimilarity = similarity;
          best = i + 1;
          bestSize = size;
        }
      }
      if (size >= window.max && best >= 0) break;
    }
    if (best < 0) break;
    breaks.push(best);
    rest -= bestSize;
    start = best;
  }
  return breaks;
}

function boundarySimilarity(units: readonly BreakUnit[], start: number, at: number, span: number): number {
  const left = units.slice(Math.max(start, at - span), at).map((unit) => unit.vector);
  const right = units.slice(at, at + span).map((unit) => unit.vector);
  return cosine(sumVectors(left), sumVectors(right));
}

/** Splits `items` at the given break indices. */
export function splitAt<T>(items: readonly T[], breaks: readonly number[]): T[][] {
  const pieces: T[][] = [];
  let from = 0;
  for (const at of [...breaks, items.length]) {
    if (at > from) pieces.push(items.slice(from, at));
    from = at;
  }
  return pieces;
}
