import { cosineSimilarities, embedQuery } from '#shared/search/semantic.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { hasCjk } from '#shared/text/segment.ts';
import { modelAnswerFailed, relayModelAnswer, type StreamedAnswer } from '../answer-fallback.ts';
import { renumberCitations } from '../citations.ts';
import { textDeltas } from '../deltas.ts';
import type { QaDeps } from '../deps.ts';
import { extractiveAnswer } from '../direct-answer.ts';
import { quotedName } from '../document-name.ts';
import type { QaEvent } from '../events.ts';
import { finishAnswer } from '../finish.ts';
import { streamModelAnswer } from '../model-steps.ts';
import type { Confidence } from '../response.ts';
import type { TraceRecorder } from '../trace.ts';
import { SUFFICIENT_DENSITY } from './evaluate.ts';
import { isMultiHop } from './follow-ups.ts';
import type { FinalAnswerInput } from './tools/index.ts';
import type { AgentState } from './types.ts';

/** Most passages a synthesized answer is written over. */
const MAX_PASSAGES = 20;

export interface SynthesisOptions {
  /** The model's final_answer, when it gave one. */
  final?: FinalAnswerInput;
  /** The iteration limit was reached: the answer is forced, with low confidence. */
  forced: boolean;
  topics?: string[];
  signal?: AbortSignal;
}

/**
 * The agent's answer: the model's final_answer (its markers renumbered in order of use); else,
 * with a chat model, its answer streamed over the gathered passages; offline, the extractive answer
 * over them (for multi-hop questions the hop's terms join the question) with any contradiction
 * found stated with both sides cited. A forced synthesis has low confidence. Ends with `done`.
 */
export async function* synthesize(
  deps: QaDeps,
  state: AgentState,
  trace: TraceRecorder,
  options: SynthesisOptions,
): AsyncGenerator<QaEvent> {
  const { request } = state.context;
  const chat = deps.providers.chat;
  const hits = state.evidence.hits;
  yield { type: 'progress', data: { stage: 'answer', message: 'Writing the answer' } };
  let answer: string;
  let passages: SearchHit[];
  let confidence: Confidence;
  const final = options.final;
  if (final?.answer.trim()) {
    const { text, order } = renumberCitations(final.answer, hits.length);
    answer = text;
    passages = order.flatMap((n) => (hits[n - 1] ? [hits[n - 1] as SearchHit] : []));
    confidence = final.confidence;
    yield* textDeltas(answer);
  } else {
    let streamed: StreamedAnswer | undefined;
    if (chat && hits.length > 0) {
      passages = hits.slice(0, MAX_PASSAGES);
      streamed = yield* relayModelAnswer(streamModelAnswer(chat, request.question, passages), options.signal);
      if (streamed.status === 'aborted') return;
      if (streamed.status === 'failed')
        yield* modelAnswerFailed(state.context.question, streamed.error, trace);
    }
    if (streamed?.status === 'done') {
      answer = streamed.text;
      passages = hits.slice(0, MAX_PASSAGES);
      confidence = 'medium';
    } else {
      const hops =
        isMultiHop(state.context.question) && state.followUps.length ? [state.followUps.join(' ')] : [];
      const extract = extractiveAnswer(state.context.question, hits, chat !== undefined && !streamed, hops);
      passages = extract.passages;
      answer = extract.text + (extract.disagree ? '' : contradictionNote(state, passages));
      confidence =
        state.infoDensity >= SUFFICIENT_DENSITY && passages.length > 0 && !streamed ? 'medium' : 'low';
      yield* textDeltas(answer);
    }
  }
  if (options.forced || passages.length === 0) confidence = 'low';
  yield* finishAnswer(deps, request, {
    answer,
    confidence,
    passages: await withRelevance(deps, state.context.question, passages),
    mode: 'agent',
    trace,
    topics: options.topics,
    iterations: state.iteration,
  });
}

/**
 * The contradictions found between passages the extract quotes, as a note after it naming both
 * documents and citing both passages.
 */
function contradictionNote(state: AgentState, passages: SearchHit[]): string {
  // Only disagreements between passages the extract quotes: the consistency check ran over every
  // passage gathered, and one that answered nothing must not enter the answer through it.
  const quoted = new Set(passages);
  const relevant = state.contradictions.filter((c) =>
    c.citations.every((n) => {
      const hit = state.evidence.hits[n - 1];
      return hit !== undefined && quoted.has(hit);
    }),
  );
  if (relevant.length === 0) return '';
  const zh = hasCjk(state.context.question);
  const cite = (evidenceNumber: number | undefined) => {
    const hit = evidenceNumber === undefined ? undefined : state.evidence.hits[evidenceNumber - 1];
    const at = hit ? passages.indexOf(hit) : -1;
    if (!hit || at < 0) return '';
    return `${quotedName(hit.documentName, zh)}${zh ? '' : ' '}[${at + 1}]`;
  };
  const lines = relevant.map((c) =>
    zh
      ? `- ${cite(c.citations[0])}与${cite(c.citations[1])}的说法不一致：${c.reason}`
      : `- ${cite(c.citations[0])} and ${cite(c.citations[1])} disagree: ${c.reason}`,
  );
  const head = zh
    ? '注意：文档之间存在不一致，请核对原文：'
    : 'Note: the documents disagree; check the originals:';
  return `\n\n${head}\n${lines.join('\n')}`;
}

/** Passages found by keyword, full-text or browsing carry no cosine relevance: computed for the references. */
async function withRelevance(deps: QaDeps, question: string, passages: SearchHit[]): Promise<SearchHit[]> {
  const missing = passages.filter((hit) => hit.relevance === undefined).map((hit) => hit.nodeId);
  if (missing.length === 0) return passages;
  const similarities = await cosineSimilarities(
    deps.db,
    deps.embedder,
    await embedQuery(deps.embedder, question),
    missing,
  );
  return passages.map((hit) =>
    hit.relevance === undefined ? { ...hit, relevance: similarities.get(hit.nodeId) ?? 0 } : hit,
  );
}
