import type { SearchHit } from '#shared/search/types.ts';
import { formatExtractiveAnswer, pickAnswerSentences } from '#shared/text/answer.ts';
import { hasCjk } from '#shared/text/segment.ts';
import { answerContexts } from './answer-contexts.ts';
import { modelAnswerFailed, relayModelAnswer } from './answer-fallback.ts';
import { textDeltas } from './deltas.ts';
import type { QaDeps } from './deps.ts';
import { disagreementNote } from './disagreement.ts';
import type { QaEvent } from './events.ts';
import { finishAnswer } from './finish.ts';
import { streamModelAnswer } from './model-steps.ts';
import type { QualityVerdict } from './quality.ts';
import type { AskRequest } from './request.ts';
import type { Confidence } from './response.ts';
import type { TraceRecorder } from './trace.ts';

/**
 * The direct answer over retrieved passages (the fast path, docs/spec.md#auto): the chat model's
 * streamed answer over the numbered passages, or offline (or when the model fails before answering)
 * the extractive answer quoting them verbatim; then `references` and `done` (mode `direct`).
 * Confidence: low when the verdict says insufficient, nothing is cited or the model failed, else
 * high with a model and medium offline.
 */
export async function* directAnswer(
  deps: QaDeps,
  request: AskRequest,
  hits: SearchHit[],
  verdict: QualityVerdict,
  trace: TraceRecorder,
  options: { topics?: string[]; signal?: AbortSignal } = {},
): AsyncGenerator<QaEvent> {
  const chat = deps.providers.chat;
  yield { type: 'progress', data: { stage: 'answer', message: 'Writing the answer' } };
  let answer = '';
  let passages: SearchHit[] = hits;
  let degraded = false;
  if (chat && hits.length > 0) {
    const streamed = yield* relayModelAnswer(streamModelAnswer(chat, request.question, hits), options.signal);
    if (streamed.status === 'aborted') return;
    if (streamed.status === 'done') answer = streamed.text;
    else {
      yield* modelAnswerFailed(request.question, streamed.error, trace);
      degraded = true;
    }
  }
  if (!chat || hits.length === 0 || degraded) {
    const extract = extractiveAnswer(request.question, hits, chat !== undefined && !degraded);
    answer = extract.text;
    passages = extract.passages;
    yield* textDeltas(answer);
  }
  const confidence: Confidence =
    !verdict.sufficient || passages.length === 0 || degraded ? 'low' : chat ? 'high' : 'medium';
  yield* finishAnswer(deps, request, {
    answer,
    confidence,
    passages,
    mode: 'direct',
    trace,
    topics: options.topics,
    reasoningSteps: 1,
  });
}

/**
 * The extractive answer over passages, its markers renumbered [1], [2], ... in order of first use and
 * the passages limited to those it quotes. `hops` are further queries (a multi-hop question's next
 * terms) whose best sentences not quoted yet follow the question's. When quoted sentences of different
 * documents disagree (two numbers for one thing), a note quotes both (`disagree`). With a chat
 * model configured but nothing retrieved, a plain statement instead of the offline label.
 */
export function extractiveAnswer(
  question: string,
  hits: SearchHit[],
  modelConfigured: boolean,
  hops: string[] = [],
): { text: string; passages: SearchHit[]; disagree?: boolean } {
  if (hits.length === 0 && modelConfigured) {
    const text = hasCjk(question)
      ? '文档中没有找到与这个问题相关的内容。'
      : 'No passage in your documents matches this question.';
    return { text, passages: [] };
  }
  const contexts = answerContexts(hits);
  const picked = pickAnswerSentences(question, contexts, { lead: true });
  for (const hop of hops) {
    // Each hop leads with a sentence not quoted yet: the one naming the bridge entity in its next
    // document, which no-padding would otherwise drop after the question's own sentence.
    const quoted = new Set(picked.map((p) => p.sentence));
    picked.push(...pickAnswerSentences(hop, contexts, { maxSentences: 3, lead: true, quoted }));
  }
  const renumber = new Map<number, number>();
  for (const sentence of picked)
    if (!renumber.has(sentence.citation)) renumber.set(sentence.citation, renumber.size + 1);
  const sentences = picked.map((s) => ({ text: s.text, citation: renumber.get(s.citation) ?? s.citation }));
  const note = disagreementNote(
    question,
    picked.flatMap((s) => {
      const hit = hits[s.citation - 1];
      const marker = `[${renumber.get(s.citation) ?? s.citation}]`;
      return hit
        ? [{ text: s.text, marker, documentId: hit.documentId, documentName: hit.documentName }]
        : [];
    }),
    // The sentences are quoted just above: the note names their documents and markers.
    { quote: false },
  );
  const text = formatExtractiveAnswer(question, sentences) + note;
  const passages = [...renumber.keys()].flatMap((original) => {
    const hit = hits[original - 1];
    return hit ? [hit] : [];
  });
  return { text, passages, disagree: note !== '' };
}
