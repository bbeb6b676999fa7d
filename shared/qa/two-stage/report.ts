import { fillPrompt } from '#shared/llm/prompt-files.ts';
import type { ChatModel, ChatStreamEvent } from '#shared/llm/types.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { offlineAnswerNotice, offlineNoAnswer } from '#shared/text/offline-notice.ts';
import { hasCjk } from '#shared/text/segment.ts';
import { disagreementNote } from '../disagreement.ts';
import { quotedName } from '../document-name.ts';
import { loadQaPrompt } from '../prompt.ts';
import { findingsBlock } from './findings.ts';
import type { SubQueryAnalysis } from './types.ts';

/** Evidence points in the report (docs/spec.md#report: three to five). */
const MAX_EVIDENCE = 5;

/**
 * The report (docs/spec.md#report) streamed by the model (role `answer`): TL;DR, conclusion, then
 * evidence points with the document's name, a verbatim quote and the extract's `[n]`.
 */
export function streamReport(
  chat: ChatModel,
  question: string,
  analyses: SubQueryAnalysis[],
  passages: SearchHit[],
): AsyncIterable<ChatStreamEvent> {
  return chat.stream({
    role: 'answer',
    system: loadQaPrompt('two-stage-answer-system'),
    messages: [
      {
        role: 'user',
        content: fillPrompt(loadQaPrompt('two-stage-answer'), {
          question,
          findings: findingsBlock(analyses, passages),
        }),
      },
    ],
  });
}

/**
 * The report without a model, labelled offline and made only of verbatim extracts: the best extract
 * as TL;DR, each sub-query's best extract as the conclusion, then up to five extracts as evidence
 * with the document's name (《name》 in Chinese, "name" in English) and “quote” [n]; when extracts of different documents disagree, both quoted
 * under a note saying so.
 */
export function offlineReport(question: string, analyses: SubQueryAnalysis[], passages: SearchHit[]): string {
  const zh = hasCjk(question);
  const number = new Map(passages.map((hit, i) => [hit.nodeId, i + 1]));
  const all = analyses.flatMap((a) => a.extracts);
  if (all.length === 0) {
    return offlineNoAnswer(zh);
  }
  const cite = (e: (typeof all)[number]) => `“${e.text}” [${number.get(e.hit.nodeId)}]`;
  const firsts = analyses.flatMap((a) => a.extracts.slice(0, 1));
  const conclusion = [...new Map(firsts.map((e) => [e.text, e])).values()];
  const distinct = [...new Map(all.map((e) => [e.text, e])).values()];
  const evidence = distinct.slice(0, MAX_EVIDENCE);
  const note = disagreementNote(
    question,
    distinct.map((e) => ({
      text: e.text,
      marker: `[${number.get(e.hit.nodeId)}]`,
      documentId: e.hit.documentId,
      documentName: e.hit.documentName,
    })),
  );
  const [best] = all;
  const report = [
    offlineAnswerNotice(zh),
    '',
    `**TL;DR**: ${best ? cite(best) : ''}`,
    '',
    `**${zh ? '结论' : 'Conclusion'}**: ${conclusion.map(cite).join(' ')}`,
    '',
    `**${zh ? '论据' : 'Evidence'}**:`,
    ...evidence.map((e, i) => `${i + 1}. ${quotedName(e.hit.documentName, zh)} ${cite(e)}`),
  ].join('\n');
  return report + note;
}
