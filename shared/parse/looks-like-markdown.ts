/** Constructs that plain text rarely has and Markdown almost always does. */
const STRONG: readonly RegExp[] = [
  /^#{1,6}[ \t]+\S/m, // ATX heading
  /^[ \t]{0,3}(```|~~~)/m, // fenced code
  /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|[ \t]*:?-{3,}/m, // table delimiter row
  /^\S[^\n]*\n={3,}[ \t]*$/m, // setext heading
  /!\[[^\]\n]*\]\([^)\s]+\)/, // image
];
const LINK = /\[[^\]\n]+\]\([^)\s]+\)/g;

/**
 * Whether text reads as Markdown: a heading, a fence, a table, an image, or several links. Lists and
 * emphasis alone are not enough, since plain notes use dashes and asterisks too.
 */
export function looksLikeMarkdown(text: string): boolean {
  const sample = text.length > 65_536 ? text.slice(0, 65_536) : text;
  if (STRONG.some((pattern) => pattern.test(sample))) return true;
  return (sample.match(LINK)?.length ?? 0) >= 2;
}
