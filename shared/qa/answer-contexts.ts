import type { SearchHit } from '#shared/search/types.ts';
import type { AnswerContext } from '#shared/text/answer.ts';

/**
 * Paragraph kinds DropQA writes from a document's structure rather than its text: an e-mail's
 * From / To / Cc / Date / Subject lines and its list of attachments (shared/parse/email).
 */
const RENDERED_KINDS = new Set(['mail-headers', 'mail-attachments']);

/**
 * The passages as contexts of an extractive answer: `[n]` is the passage's place (from `first`),
 * each knows its document, and rendered metadata (an e-mail's header lines) is marked as such, so
 * that it frames its message's body instead of being quoted as the answer.
 *
 * @example answerContexts(hits)[0] // { content: 'From: …\nSubject: Spring fair', citation: 1, document: '…', rendered: true }
 */
export function answerContexts(hits: SearchHit[], first = 1): AnswerContext[] {
  return hits.map((hit, i) => ({
    content: hit.content,
    citation: i + first,
    document: hit.documentId,
    rendered: RENDERED_KINDS.has(String(hit.metadata?.kind ?? '')),
  }));
}
