import { splitSentences } from '#shared/text/sentences.ts';

/** One sentence located in its text: `text.slice(start, end)` is the sentence. */
export interface SentenceSpan {
  start: number;
  end: number;
  text: string;
}

/**
 * The sentences of `text` with their offsets, so pieces cut between sentences keep the original
 * wording and spacing.
 */
export function sentenceSpans(text: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  let cursor = 0;
  for (const sentence of splitSentences(text)) {
    const at = text.indexOf(sentence, cursor);
    if (at < 0) continue;
    cursor = at + sentence.length;
    spans.push({ start: at, end: cursor, text: sentence });
  }
  return spans;
}
