import { hasCjk } from '#shared/text/segment.ts';
import { findNumericContradictions } from './agent/consistency.ts';
import { quotedName } from './document-name.ts';

/** A sentence an offline answer quotes, with its source and how the answer cites it. */
export interface QuotedSentence {
  text: string;
  /** The answer's marker for it: `[3]`, `[DOC-1a2b3c4d-PARA-2]`. */
  marker: string;
  documentId: string;
  documentName: string;
}

/**
 * What an offline answer adds when the sentences it quotes disagree (docs/spec.md#contradictions):
 * sentences of different documents about the same thing (two content words in common) that
 * state different numbers (`findNumericContradictions`) are quoted side by side under a line saying
 * the sources disagree, in the question's language; with `quote: false` (an answer that quotes
 * them just above) each side is its document and marker only. Empty when they agree.
 *
 * @example disagreementNote('What did Kestrel cost?', [a, b])
 * // '\n\nThe sources disagree; check the originals:\n- "Budget" “… 2.4 million euros.” [1] vs "Review" “… 3.1 million euros.” [2]'
 */
export function disagreementNote(
  question: string,
  quoted: QuotedSentence[],
  options: { quote?: boolean } = {},
): string {
  const found = findNumericContradictions(
    quoted.map((q, i) => ({ text: q.text, citation: i, documentId: q.documentId })),
  );
  if (found.length === 0) return '';
  const zh = hasCjk(question);
  const side = (i: number | undefined) => {
    const q = quoted[i ?? -1];
    if (!q) return '';
    return options.quote === false
      ? `${quotedName(q.documentName, zh)} ${q.marker}`
      : `${quotedName(q.documentName, zh)} “${q.text}” ${q.marker}`;
  };
  const lines = found.map((c) =>
    zh
      ? `- ${side(c.citations[0])} 与 ${side(c.citations[1])}`
      : `- ${side(c.citations[0])} vs ${side(c.citations[1])}`,
  );
  const head = zh ? '注意：文档之间的说法不一致，请核对原文：' : 'The sources disagree; check the originals:';
  return `\n\n${head}\n${lines.join('\n')}`;
}
