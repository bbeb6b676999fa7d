import { hasCjk, segment } from '#shared/text/segment.ts';

/** Terms in a key-term title. */
const TERMS = 3;
/** Text read for terms: the start of a long group says enough. */
const MAX_CHARS = 20_000;

/**
 * A title of the most frequent content words of the texts (segmented as the index does, stopwords
 * dropped, ties in order of first use), for a section that gathers several topics: it names what
 * they share instead of repeating one child's title. Empty string when there is no word.
 *
 * @example keyTermTitle(['Garden soil. Garden tomatoes.', 'Tomato roots.']) // 'garden / tomatoes / soil'
 */
export function keyTermTitle(texts: readonly string[]): string {
  const counts = new Map<string, number>();
  let read = 0;
  for (const text of texts) {
    if (read >= MAX_CHARS) break;
    read += text.length;
    // Single CJK characters are too vague for a title; words of two or more are kept.
    for (const token of segment(text.slice(0, MAX_CHARS))) {
      if (/^\p{N}+$/u.test(token) || (hasCjk(token) && [...token].length < 2)) continue;
      counts.set(token, (counts.get(token) ?? 0) + 1);
    }
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]).slice(0, TERMS);
  const terms = ranked.map(([term]) => term);
  return terms.join(terms.some(hasCjk) ? '、' : ' / ');
}
