import { joinLines } from './join-lines.ts';
import type { TextBlock } from './layout.ts';
import { isCjk } from './script.ts';

const SENTENCE_END = /[.!?;:。！？；：)"”’]$/;

function continues(last: TextBlock, next: TextBlock): boolean {
  if (last.rows || next.rows || last.size !== next.size || last.bold !== next.bold) return false;
  if (SENTENCE_END.test(last.text)) return false;
  const first = next.text[0] ?? '';
  return /\p{Ll}/u.test(first) || (isCjk(last.text.at(-1)) && isCjk(first));
}

/**
 * Mends paragraphs a page break cut in two: when a page's last block stops mid-sentence and the
 * next page's first block goes on in the same font (lower case, or CJK after CJK), they become one
 * paragraph, on the page where it starts.
 */
export function joinAcrossPages(pages: TextBlock[][]): void {
  for (let i = 1; i < pages.length; i++) {
    const last = pages[i - 1]?.at(-1);
    const page = pages[i] ?? [];
    const next = page[0];
    if (!last || !next || !continues(last, next)) continue;
    last.text = joinLines(last.text, next.text);
    last.lines += next.lines;
    page.shift();
  }
}
