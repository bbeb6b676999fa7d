/** Whitespace that collapsing would change: anything but single spaces between words. */
const UNEVEN_SPACE = /[^\S ]| {2}|^ | $/;

/**
 * The text on one line: each whitespace run (line breaks included) made a single space, trimmed.
 * Text that already is (most short lines, cells and titles) is returned as it is, without a copy.
 *
 * @example collapseSpaces('  Travel \n policy ') // 'Travel policy'
 */
export function collapseSpaces(text: string): string {
  return UNEVEN_SPACE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}
