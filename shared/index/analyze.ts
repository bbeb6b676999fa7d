import { stemmer } from 'stemmer';
import { cjkRuns, isStopword, segment } from '#shared/text/segment.ts';

/**
 * The version of the analysis (`searchTerms` and what each node's search vector is built from).
 * Raise it with any change that alters the terms of stored text: a database whose current versions
 * were analysed by an older one is re-analysed in the background when the runtime opens it
 * (`reanalyseStale`), so old and new documents are scored alike without re-ingesting. 1: words and
 * character bigrams in one field; 2: jieba's words and character grams ('#') as two fields, with
 * `nodes.gram_count`.
 */
export const ANALYZER_VERSION = 2;

/** Latin words the Porter stemmer applies to: letters only, long enough to carry a suffix. */
const STEMMABLE = /^[a-z]{3,}$/;

/** Marks a character n-gram term, so it never merges with a jieba word of the same characters. */
const GRAM_MARK = '#';

/**
 * The search terms of a text, in two fields: its words (`wordTerms`), then the character unigrams
 * and bigrams of its CJK runs, each marked as a gram (`cjkGrams`). Documents (the tsvector and the
 * in-memory BM25 index) and queries are analysed by this one function; BM25 scores the two fields
 * apart, each with its own document length and parameters (`bm25Score`, `isCharacterGram`). English
 * text has no grams.
 *
 * @example searchTerms('Mutations in the genes') // ['mutat', 'gene']
 * @example searchTerms('数据平台') // ['数据', '平台', '数据平台', '#数', '#据', '#平', '#台', '#数据', '#据平', '#平台']
 */
export function searchTerms(text: string): string[] {
  return [...wordTerms(text), ...cjkGrams(text)];
}

/**
 * The word terms of a text: `segment`'s tokens (jieba for CJK, lower-cased words, stop words,
 * possessive "s" and hyphens split off), each English word reduced to its Porter stem ("studies",
 * "studied" -> "studi"), so a query word finds its other inflections. The character pairs jieba did
 * not yield are the gram field's (`cjkGrams`), not words: counted in both fields they gave
 * domainrag-dev 0.441, as words alone 0.468 (docs/quality.md, issue 29, two fields).
 *
 * @example wordTerms('数据平台的预算') // ['数据', '平台', '预算']
 */
export function wordTerms(text: string): string[] {
  return segment(text).map(stemTerm);
}

/**
 * The character unigrams and bigrams of each CJK run ("数据平台" -> 数, 据, 平, 台, 数据, 据平, 平台),
 * each marked as a gram (`isCharacterGram`): the standard CJK n-gram analysis as a second field
 * beside jieba's words. It finds a name jieba cuts differently in the question and in the passage,
 * and single characters carry meaning in Chinese (院, 系, 届). A function word (的, 是, ...) is
 * neither a gram nor in one. Measured in docs/quality.md (issue 29, two fields).
 */
export function cjkGrams(text: string): string[] {
  const grams: string[] = [];
  for (const run of cjkRuns(text)) {
    const chars = [...run];
    const kept = chars.map((c) => !isStopword(c));
    chars.forEach((c, i) => {
      if (kept[i]) grams.push(GRAM_MARK + c);
    });
    for (let i = 0; i + 1 < chars.length; i++)
      if (kept[i] && kept[i + 1]) grams.push(`${GRAM_MARK}${chars[i]}${chars[i + 1]}`);
  }
  return grams;
}

/** True for a term of `cjkGrams` (a character unigram or bigram), false for a word. */
export function isCharacterGram(term: string): boolean {
  return term.startsWith(GRAM_MARK);
}

/** One token's search term: the Porter stem of an English word, any other token as it is. */
export function stemTerm(token: string): string {
  if (!STEMMABLE.test(token)) return token;
  let stem = stems.get(token);
  if (stem === undefined) {
    if (stems.size >= STEM_CACHE_SIZE) stems.clear();
    stem = stemmer(token);
    stems.set(token, stem);
  }
  return stem;
}

/**
 * Stems of the words seen lately: text repeats its words, and each stem is a dozen pattern
 * replacements (a document's nodes, summaries and topics stem ~10,000 words). Emptied when full.
 */
const stems = new Map<string, string>();
const STEM_CACHE_SIZE = 50_000;
