import stopwords from 'stopwords-iso';

/**
 * The stop words of the maintained multilingual lists (`stopwords-iso`: English and Chinese, the
 * languages documents are segmented for), lower case and NFKC-normalised.
 */
const STOP_WORDS = new Set(
  [...stopwords.en, ...stopwords.zh].map((word) => word.normalize('NFKC').toLowerCase()),
);

/**
 * True for a word of the multilingual stop-word lists ("here", "provided", "下面", "一些"): never a
 * topic on its own.
 *
 * @example isStopWord('beneath') // false (a preposition the tagger rules out); isStopWord('here') // true
 */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word.normalize('NFKC').toLowerCase());
}
