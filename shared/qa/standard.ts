import { reasonOf } from '#shared/errors.ts';
import { hasCjk } from '#shared/index/segment.ts';
import { formatExtractiveAnswer, pickAnswerSentences, questionCoverage } from '#shared/llm/offline/answer.ts';
import { hybridSearch } from '#shared/search/hybrid.ts';
import type { SearchFilters, SearchHit } from '#shared/search/types.ts';
import type { QaDeps } from './deps.ts';
import type { QaEvent } from './events.ts';
import { saveAnswer, topicsOf } from './history.ts';
import { judgeRetrieval, streamModelAnswer } from './model-steps.ts';
import type { AskRequest } from './request.ts';
import type { Confidence, QaResponse, QaSource, TraceStep } from './response.ts';
import { toSource } from './sources.ts';

/** Offline, an extract containing this share of the question's terms answers it with medium confidence. */
const OFFLINE_SUFFICIENT_COVERAGE = 0.6;

/**
 * The standard RAG flow (seed 000 §6.5): hybrid retrieval (top K, the request's filters), contexts
 * with breadcrumbs, a quality check (no result -> low confidence; with a chat model, best relevance
 * below `search.relevanceThreshold` -> low, else the model's judgment; offline, the share of the
 * question's terms the extract contains, since hashing cosines are not on the threshold's scale), the answer streamed as `delta` events (the chat model, or offline the extractive
 * answerer), then `references`, and `done` once the answer is saved in `qa_history`.
 */
export async function* standardFlow(
  deps: QaDeps,
  request: AskRequest,
  signal?: AbortSignal,
): AsyncGenerator<QaEvent> {
  const { providers } = deps;
  const chat = providers.chat;
  const trace: TraceStep[] = [];
  const step = (s: TraceStep): QaEvent => {
    trace.push(s);
    return { type: 'trace', data: s };
  };

  yield { type: 'progress', data: { stage: 'retrieve', message: 'Searching your documents' } };
  const filters: SearchFilters = {
    documentIds: request.document_ids,
    topicIds: request.topic_filter,
    version: request.version,
  };
  const hits = await hybridSearch(deps, request.question, filters, deps.search.topK);
  if (signal?.aborted) return;
  yield step({
    step: 1,
    type: 'action',
    tool: 'hybrid_search',
    content: `Full-text and semantic search found ${hits.length} passage(s).`,
  });

  const best = Math.max(0, ...hits.map((hit) => hit.relevance ?? 0));
  const threshold = deps.search.relevanceThreshold;
  let sufficient = true;
  if (hits.length === 0) {
    sufficient = false;
    yield step({ step: 2, type: 'observation', content: 'No passage matched the question.' });
  } else if (chat && best < threshold) {
    sufficient = false;
    yield step({
      step: 2,
      type: 'observation',
      content: `The best passage's relevance ${best.toFixed(2)} is below ${threshold}; answering from what was found, with low confidence.`,
    });
  } else if (chat) {
    try {
      const judged = await judgeRetrieval(chat, request.question, hits);
      yield judged.usage;
      sufficient = judged.sufficient;
      yield step({
        step: 2,
        type: 'observation',
        content: `${judged.sufficient ? 'The passages can answer the question' : 'The passages may not answer the question'}: ${judged.reason}`,
      });
    } catch (error) {
      yield step({
        step: 2,
        type: 'observation',
        content: `Quality judgment unavailable: ${reasonOf(error)}`,
      });
    }
  }
  if (signal?.aborted) return;

  yield { type: 'progress', data: { stage: 'answer', message: 'Writing the answer' } };
  let answer = '';
  let sources: QaSource[];
  if (chat && hits.length > 0) {
    for await (const event of streamModelAnswer(chat, request.question, hits)) {
      if (signal?.aborted) return;
      if (event.type === 'delta') answer += event.data.text;
      yield event;
    }
    sources = hits.map((hit, i) => toSource(hit, i + 1));
  } else {
    const offline = offlineAnswer(request.question, hits, chat !== undefined);
    answer = offline.text;
    sources = offline.sources;
    if (!chat && hits.length > 0) {
      const coverage = questionCoverage(request.question, offline.quoted);
      sufficient = coverage >= OFFLINE_SUFFICIENT_COVERAGE;
      yield step({
        step: 2,
        type: 'observation',
        content: `The quoted sentences contain ${Math.round(coverage * 100)}% of the question's terms${sufficient ? '' : '; answering with low confidence'}.`,
      });
    }
    for (const text of lineChunks(answer)) yield { type: 'delta', data: { text } };
  }
  yield { type: 'references', data: { sources } };

  const confidence: Confidence = !sufficient || sources.length === 0 ? 'low' : chat ? 'high' : 'medium';
  const response: QaResponse = {
    answer,
    confidence,
    sources,
    identified_topics: await topicsOf(deps.db, [...new Set(sources.map((s) => s.document_id))]),
    mode: 'direct',
    requested_mode: request.mode,
    reasoning_steps: 1,
    provider: providers.label,
  };
  if (request.version !== undefined) response.version = request.version;
  if (request.show_reasoning) response.reasoning_trace = trace;
  response.history_id = await saveAnswer(deps.db, request.question, response);
  yield { type: 'done', data: { response } };
}

/**
 * The extractive answer over the hits, its markers renumbered [1], [2], ... in order of first use and
 * the sources limited to the passages it quotes. With a chat model configured but nothing retrieved,
 * a plain statement instead of the offline label.
 */
function offlineAnswer(question: string, hits: SearchHit[], modelConfigured: boolean) {
  if (hits.length === 0 && modelConfigured) {
    const text = hasCjk(question)
      ? '文档中没有找到与这个问题相关的内容。'
      : 'No passage in your documents matches this question.';
    return { text, sources: [], quoted: [] };
  }
  const picked = pickAnswerSentences(
    question,
    hits.map((hit, i) => ({ content: hit.content, citation: i + 1 })),
  );
  const renumber = new Map<number, number>();
  for (const sentence of picked)
    if (!renumber.has(sentence.citation)) renumber.set(sentence.citation, renumber.size + 1);
  const text = formatExtractiveAnswer(
    question,
    picked.map((s) => ({ text: s.text, citation: renumber.get(s.citation) ?? s.citation })),
  );
  const sources = [...renumber].flatMap(([original, citation]) => {
    const hit = hits[original - 1];
    return hit ? [toSource(hit, citation)] : [];
  });
  return { text, sources, quoted: picked.map((s) => s.text) };
}

/** The answer split at line ends, each piece keeping its newline: concatenated, the exact text. */
function lineChunks(text: string): string[] {
  return text.split(/(?<=\n)/);
}
