/** The numbering a heading-like line starts with: its depth, and whether it marks a heading by itself. */
export interface HeadingNumber {
  depth: number;
  /**
   * "第一章", "Chapter 3", "1.2", "一、" mark headings on their own; a plain "1." or "A." may just be a
   * list item, so it counts only with a larger or bold font.
   */
  strong: boolean;
}

const CN = '[一二三四五六七八九十百零〇两\\d]+';
const PATTERNS: readonly { pattern: RegExp; depth: (match: RegExpExecArray) => number; strong: boolean }[] = [
  { pattern: new RegExp(`^第\\s*${CN}\\s*[章篇部卷编]`), depth: () => 1, strong: true },
  { pattern: new RegExp(`^第\\s*${CN}\\s*节`), depth: () => 2, strong: true },
  { pattern: new RegExp(`^第\\s*${CN}\\s*条`), depth: () => 3, strong: true },
  { pattern: /^(?:part|chapter|appendix)\s+(?:\d+|[ivxlc]+|[a-z])\b/i, depth: () => 1, strong: true },
  { pattern: /^section\s+\d+(?:\.\d+)*\b/i, depth: () => 2, strong: true },
  { pattern: /^[一二三四五六七八九十]+[、.．]/, depth: () => 1, strong: true },
  { pattern: /^[(（][一二三四五六七八九十]+[)）]/, depth: () => 2, strong: true },
  {
    pattern: /^(\d{1,3}(?:\.\d{1,3})+)\.?(?=\s|\p{L})/u,
    depth: (m) => (m[1] ?? '').split('.').length,
    strong: true,
  },
  { pattern: /^\d{1,3}[.．、)]?(?=\s|\p{L})/u, depth: () => 1, strong: false },
  { pattern: /^[A-Z][.)](?=\s)/, depth: () => 1, strong: false },
  { pattern: /^[IVX]{1,5}\.(?=\s)/, depth: () => 1, strong: false },
];

/**
 * The heading numbering a line starts with, if any.
 *
 * @example headingNumber('1.2 Scope') // { depth: 2, strong: true }
 * @example headingNumber('第三章 方法') // { depth: 1, strong: true }
 * @example headingNumber('3. Results') // { depth: 1, strong: false }
 */
export function headingNumber(text: string): HeadingNumber | undefined {
  const trimmed = text.trimStart();
  for (const { pattern, depth, strong } of PATTERNS) {
    const match = pattern.exec(trimmed);
    if (match) return { depth: depth(match), strong };
  }
  return undefined;
}
