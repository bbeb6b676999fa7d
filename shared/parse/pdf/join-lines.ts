import { isCjk, joinText } from './script.ts';

/** Joins the text of a line to the paragraph before it, mending words hyphenated at the line end. */
export function joinLines(text: string, next: string): string {
  // A word hyphenated at the end of a line is joined again ("exam-" + "ple").
  if (/[A-Za-z]-$/.test(text) && /^[a-z]/.test(next)) return text.slice(0, -1) + next;
  if (isCjk(text.at(-1)) && isCjk(next[0])) return text + next;
  return joinText(text, next, true);
}
