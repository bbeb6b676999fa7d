import { stemmer } from 'stemmer';
import { segment } from '#shared/text/segment.ts';

/** Latin words the Porter stemmer applies to: letters only, long enough to carry a suffix. */
const STEMMABLE = /^[a-z]{3,}$/;

/**
 * The search terms of a text: `segment`'s tokens (jieba for CJK, lower-cased words, stop words,
 * possessive "s" and hyphens split off), each English word reduced to its Porter stem ("studies",
 * "studied" -> "studi"). Documents (the tsvector and the in-memory BM25 index) and queries are
 * analysed by this one function, so a query word finds its other inflections.
 *
 * @example searchTerms('Mutations in the genes') // ['mutat', 'gene']
 */
export function searchTerms(text: string): string[] {
  return segment(text).map(stemTerm);
}

/** One token's search term: the Porter stem of an English word, any other token as it is. */
export function stemTerm(token: string): string {
  return STEMMABLE.test(token) ? stemmer(token) : token;
}
