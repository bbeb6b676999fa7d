import { fillPrompt, stripDelimiters } from '#shared/llm/prompt-files.ts';
import type { ChatModel, ChatStreamEvent } from '#shared/llm/types.ts';
import { pickAnswerSentences } from '#shared/text/answer.ts';
import { offlineAnswerNotice, offlineNoAnswer } from '#shared/text/offline-notice.ts';
import { hasCjk } from '#shared/text/segment.ts';
import { disagreementNote } from '../disagreement.ts';
import { quotedName } from '../document-name.ts';
import { loadQaPrompt } from '../prompt.ts';
import type { Stage1Result } from './stage1.ts';

/**
 * Stage 2 (docs/spec.md#stage-2): the question and every Stage-1 reply sent to the model (role
 * `answer`), whose answer streams with the documents' markers kept.
 */
export function streamSynthesis(
  chat: ChatModel,
  question: string,
  documents: Stage1Result[],
): AsyncIterable<ChatStreamEvent> {
  const findings = documents
    .map(
      (doc) =>
        `<document id="DOC-${doc.shortId}" name="${stripDelimiters(doc.name).replace(/"/g, "'")}" version="${doc.version}">\n${stripDelimiters(doc.reply)}\n</document>`,
    )
    .join('\n');
  return chat.stream({
    role: 'answer',
    system: loadQaPrompt('documents-stage2-system'),
    messages: [
      { role: 'user', content: fillPrompt(loadQaPrompt('documents-stage2'), { question, findings }) },
    ],
  });
}

/** Sentences quoted per hop of a multi-hop question, besides the question's own. */
const PER_HOP = 2;

/**
 * Stage 2 without a model: the offline label, then the Stage-1 sentences that best match the
 * question across all documents, and for a multi-hop question those that best match each name its
 * hops led to (`hops`: "Dana Whitfield", then "Borealis"), each quoted verbatim under its document's
 * name with its marker; when quotes of different documents disagree, a note quotes both.
 */
export function offlineSynthesis(question: string, documents: Stage1Result[], hops: string[] = []): string {
  const zh = hasCjk(question);
  // The sentences Stage 1 quoted from one block stay together, so they are judged as one passage
  // (a sheet row's Quantity line goes with the Part and Warehouse lines that matched).
  const blocks = new Map<string, { documentId: string; doc: string; ref: string; texts: string[] }>();
  for (const doc of documents) {
    for (const q of doc.quoted) {
      const key = `${doc.documentId}\n${q.ref}`;
      const block = blocks.get(key) ?? { documentId: doc.documentId, doc: doc.name, ref: q.ref, texts: [] };
      block.texts.push(q.text);
      blocks.set(key, block);
    }
  }
  const candidates = [...blocks.values()];
  const contexts = candidates.map((c, i) => ({ content: c.texts.join('\n'), citation: i }));
  const seen = new Set<string>();
  const picked = [
    ...pickAnswerSentences(question, contexts, { maxSentences: 5, maxChars: 1200 }),
    ...hops.flatMap((hop) => pickAnswerSentences(hop, contexts, { maxSentences: PER_HOP })),
  ].filter((s) => !seen.has(s.text) && seen.add(s.text));
  if (picked.length === 0) {
    return offlineNoAnswer(zh);
  }
  const label = offlineAnswerNotice(zh);
  const lines = picked.map((s) => {
    const c = candidates[s.citation];
    if (!c) return '';
    // An image's alt text is a caption, not a quote from the text: it is not presented as one.
    const name = quotedName(c.doc, zh);
    if (c.ref.includes('-IMAGE-')) return `- ${name} ${zh ? '图片' : 'image'}: ${s.text} [${c.ref}]`;
    return `- ${name} “${s.text}” [${c.ref}]`;
  });
  const note = disagreementNote(
    question,
    picked.flatMap((s) => {
      const c = candidates[s.citation];
      return c && !c.ref.includes('-IMAGE-')
        ? [{ text: s.text, marker: `[${c.ref}]`, documentId: c.documentId, documentName: c.doc }]
        : [];
    }),
  );
  return [label, '', ...lines.filter(Boolean)].join('\n') + note;
}
