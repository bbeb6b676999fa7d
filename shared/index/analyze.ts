import { stemmer } from 'stemmer';
import { cjkRuns, isStopword, segment } from '#shared/text/segment.ts';

/**
 * The version of the analysis (`searchTerms` and what each node's search vector is built from).
 * Raise it with any change that alters the terms of stored text: a database whose current versions
 * were analysed by an older one is re-analysed in the background when the runtime opens it
 * (`reanalyseStale`), so old and new documents are scored alike without re-ingesting.
 */
export const ANALYZER_VERSION = 1;

/** Latin words the Porter stemmer applies to: letters only, long enough to carry a suffix. */
const STEMMABLE = /^[a-z]{3,}$/;

/**
 * The search terms of a text: `segment`'s tokens (jieba for CJK, lower-cased words, stop words,
 * possessive "s" and hyphens split off), each English word reduced to its Porter stem ("studies",
 * "studied" -> "studi"), then the character bigrams of its CJK runs that jieba did not already
 * yield as words (`cjkBigrams`). Documents (the tsvector and the in-memory BM25 index) and queries
 * are analysed by this one function, so a query word finds its other inflections.
 *
 * @example searchTerms('Mutations in the genes') // ['mutat', 'gene']
 * @example searchTerms('数据平台的预算') // ['数据', '平台', '预算', '据平']
 */
export function searchTerms(text: string): string[] {
  const words = segment(text).map(stemTerm);
  return [...words, ...cjkBigrams(text, new Set(words))];
}

/**
 * Overlapping character pairs of each CJK run ("数据平台" -> 数据, 据平, 平台), except pairs in
 * `words`: they find a name or term jieba's dictionary splits differently in the question and in
 * the passage, as the standard CJK bigram analysis does, while jieba's words keep their precision.
 * On cmrc2018-trial full-text nDCG@10 0.982 (jieba alone) -> 0.990, hybrid 0.983 -> 0.991 (docs/quality.md,
 * Retrieval quality). A pair holding a function word (的, 是, ...) is left out: 0.990 -> 0.991.
 */
export function cjkBigrams(text: string, words: ReadonlySet<string> = new Set()): string[] {
  const pairs: string[] = [];
  for (const run of cjkRuns(text)) {
    const chars = [...run];
    for (let i = 0; i + 1 < chars.length; i++) {
      const [a, b] = [chars[i] as string, chars[i + 1] as string];
      if (isStopword(a) || isStopword(b)) continue;
      if (!words.has(a + b)) pairs.push(a + b);
    }
  }
  return pairs;
}

/** One token's search term: the Porter stem of an English word, any other token as it is. */
export function stemTerm(token: string): string {
  return STEMMABLE.test(token) ? stemmer(token) : token;
}
