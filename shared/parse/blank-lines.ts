/**
 * The text with its blank lines removed, so it stays one Markdown block (a blank line would end a
 * paragraph, a quote or a footnote early).
 */
export function withoutBlankLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join('\n');
}
