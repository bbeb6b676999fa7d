import type { SearchHit } from '#shared/search/types.ts';
import { verifyQuotes } from './citations.ts';
import type { QaDeps } from './deps.ts';
import type { QaEvent } from './events.ts';
import { saveAnswer, topicsOf } from './history.ts';
import type { AskRequest } from './request.ts';
import type { AnswerMode, Confidence, QaResponse, QaSource, QaTable } from './response.ts';
import { toSource } from './sources.ts';
import type { TraceRecorder } from './trace.ts';

/** What a flow has produced once its answer text is complete. */
export interface AnswerDraft {
  answer: string;
  confidence: Confidence;
  /** The cited passages in citation order: `passages[n - 1]` is the answer's `[n]`. */
  passages: SearchHit[];
  mode: AnswerMode;
  trace: TraceRecorder;
  /** Topics the question is about; default: the topics linked to the cited documents. */
  topics?: string[];
  iterations?: number;
  reasoningSteps?: number;
  /** A table answer's rows as a table (`QaResponse.table`). */
  table?: QaTable;
}

/**
 * The end of every flow: checks each quote of the answer against the full text of the passage it
 * cites (`verified`, `quotes` on the source), yields `references`, builds the response
 * (docs/spec.md#response), saves it in `qa_history` and yields `done`.
 */
export async function* finishAnswer(
  deps: QaDeps,
  request: AskRequest,
  draft: AnswerDraft,
): AsyncGenerator<QaEvent> {
  const { byCitation, unattributed } = verifyQuotes(
    draft.answer,
    new Map(draft.passages.map((hit, i) => [i + 1, hit.content])),
  );
  const sources: QaSource[] = draft.passages.map((hit, i) => {
    const source = toSource(hit, i + 1);
    const quotes = byCitation.get(i + 1);
    return quotes ? { ...source, verified: quotes.every((q) => q.verified), quotes } : source;
  });
  yield { type: 'references', data: { sources } };
  const response: QaResponse = {
    answer: draft.answer,
    confidence: draft.confidence,
    sources,
    identified_topics:
      draft.topics && draft.topics.length > 0
        ? draft.topics
        : await topicsOf(deps.db, deps.access, [...new Set(sources.map((s) => s.document_id))]),
    mode: draft.mode,
    requested_mode: request.mode,
    provider: deps.providers.label,
  };
  if (draft.reasoningSteps !== undefined) response.reasoning_steps = draft.reasoningSteps;
  if (draft.iterations !== undefined) response.iterations = draft.iterations;
  if (unattributed.length > 0) response.unverified_quotes = unattributed;
  if (draft.table) response.table = draft.table;
  if (request.version != null) response.version = request.version;
  if (request.show_reasoning) response.reasoning_trace = draft.trace.steps;
  response.history_id = await saveAnswer(deps.db, request, response);
  yield { type: 'done', data: { response } };
}
