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

/**
 * What frames the passages an extract quotes (by their `[n]`, numbered from `first`), beyond its
 * sentences: each one's document name and section headings, and the rendered header lines of its
 * message (an e-mail's Subject) among the hits. A line under the slide title "下一步" or in the mail
 * "Summer fair plans" is about those words though it does not repeat them.
 *
 * @example passageFrames(hits, [1]) // ['review.ppt', '下一步']
 */
export function passageFrames(hits: SearchHit[], citations: number[], first = 1): string[] {
  const cited = [...new Set(citations)].flatMap((n) => {
    const hit = hits[n - first];
    return hit ? [hit] : [];
  });
  const documents = new Set(cited.map((hit) => hit.documentId));
  const headers = hits.filter(
    (hit) => documents.has(hit.documentId) && RENDERED_KINDS.has(String(hit.metadata?.kind ?? '')),
  );
  return [
    ...new Set([
      ...cited.flatMap((hit) => [hit.documentName, ...hit.sectionPath]),
      ...headers.map((hit) => hit.content),
    ]),
  ];
}
