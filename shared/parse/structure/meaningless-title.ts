/**
 * Titles that are only a number (docs/spec.md#title-enrichment: four numbering patterns, plus bare
 * English and nested numbering): they say where a section is, not what it is about.
 */
const PATTERNS: readonly RegExp[] = [
  /^[一二三四五六七八九十百零〇]+[、.．]?$/u, // 一、 二、 三
  /^[0-9]+[、.．]$/u, // 1. 2、
  /^第[一二三四五六七八九十百零〇\d]+(?:章|节|部分|篇)$/u, // 第一章 (no suffix)
  /^[A-Z][、.．]$/u, // A. B.
  /^[0-9]+(?:\.[0-9]+)*$/u, // 3, 3.2
  /^[（(][一二三四五六七八九十\d]+[)）]$/u, // （一） (1)
  /^[IVXLC]+[、.．]$/u, // II.
  /^(?:chapter|part|section|appendix|unit|lesson)\s+(?:[0-9]+|[ivxlc]+|[a-z]|one|two|three|four|five|six|seven|eight|nine|ten)[.:]?$/iu,
];

/**
 * True when a section title carries no meaning of its own ("一、", "1.", "第二章", "A.", "Chapter 2",
 * "Part II"), so a descriptive suffix should be added to it.
 *
 * @example isMeaninglessTitle('第二章') // true
 * @example isMeaninglessTitle('第二章 系统设计') // false
 */
export function isMeaninglessTitle(title: string): boolean {
  const text = title.normalize('NFKC').trim().replace(/\s+/g, ' ');
  if (text === '') return false;
  return PATTERNS.some((pattern) => pattern.test(text));
}
