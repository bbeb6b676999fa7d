import { reasonOf } from '#shared/errors.ts';
import { hasCjk } from '#shared/index/segment.ts';
import type { ChatModel, ChatStreamEvent } from '#shared/llm/types.ts';
import { retrievePassages } from '#shared/search/passages.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { modelAnswerFailed, relayModelAnswer } from '../answer-fallback.ts';
import { textDeltas } from '../deltas.ts';
import type { QaDeps } from '../deps.ts';
import type { QaEvent } from '../events.ts';
import { finishAnswer } from '../finish.ts';
import type { AskRequest } from '../request.ts';
import type { Confidence } from '../response.ts';
import { requestFilters } from '../retrieve.ts';
import { TraceRecorder } from '../trace.ts';
import { ReadAhead } from './buffered.ts';
import { chainHops } from './chain.ts';
import { Deadline, StageTimeout } from './deadline.ts';
import { decomposeOffline, decomposeWithModel } from './decompose.ts';
import { extractedPassages } from './findings.ts';
import { judgeOffline } from './judge.ts';
import { offlineReport, streamReport } from './report.ts';
import { runStage, usageEvent } from './stage.ts';
import { judgeSufficiencyOffline, judgeSufficiencyWithModel } from './sufficiency.ts';
import type { SubQuery, SubQueryAnalysis, SufficiencyVerdict, TwoStageOptions } from './types.ts';

/** The deps of the mode carry its settings (`qa.twoStage` of the configuration, see `qaDepsOf`). */
export type TwoStageDeps = QaDeps & { twoStage?: TwoStageOptions };

const DEFAULTS = { maxSubQueries: 5, maxExtraQueries: 3, timeoutMs: 20_000, speculative: true };

/**
 * The two-stage mode (docs/spec.md#two-stage): decomposition into at most 5 affirmative sub-queries
 * (`subqueries` event), hybrid retrieval and relevance judges per sub-query in parallel, the
 * sufficiency judge (while it runs the report is already being written, kept back until the
 * verdict), an optional second stage with the judge's additional sub-queries, then the streamed
 * report (TL;DR, conclusion, evidence with 《document》 and verbatim quotes), `references` and
 * `done`. When the stages outlast `timeoutMs` the flow answers from a single retrieval and says so
 * (`progress` stage `degraded`). Offline, heuristic decomposition, score-based judges and an
 * extractive report stand in, and a multi-hop question's stages are followed by hops that search
 * for the names the extracts state (`chainHops`: the lead of Atlas -> Dana Whitfield -> Borealis
 * and its result).
 */
export async function* twoStageFlow(
  deps: TwoStageDeps,
  request: AskRequest,
  signal?: AbortSignal,
  options: TwoStageOptions = {},
): AsyncGenerator<QaEvent> {
  const o = { ...DEFAULTS, topK: deps.search.topK, ...deps.twoStage, ...options };
  const chat = deps.providers.chat;
  const filters = requestFilters(request);
  const trace = new TraceRecorder();
  const question = request.question;
  const stageRun = { chat, question, filters, topK: o.topK, trace };
  let analyses: SubQueryAnalysis[];
  let verdict: SufficiencyVerdict;
  let speculative: ReadAhead<ChatStreamEvent> | undefined;
  try {
    const deadline = new Deadline(o.timeoutMs);
    yield {
      type: 'progress',
      data: { stage: 'decompose', message: 'Breaking the question into sub-queries' },
    };
    const subqueries = yield* decompose(chat, question, o.maxSubQueries, deadline, trace);
    yield {
      type: 'subqueries',
      data: { items: subqueries.map((s) => ({ text: s.text, purpose: s.focus })) },
    };
    if (signal?.aborted) return;
    trace.iteration(2);
    analyses = yield* runStage(deps, { ...stageRun, subqueries, deadline });
    if (signal?.aborted) return;
    trace.iteration(3);
    yield {
      type: 'progress',
      data: { stage: 'sufficiency', message: 'Checking whether the findings suffice' },
    };
    const passages = extractedPassages(analyses);
    if (chat && o.speculative && passages.length > 0)
      speculative = new ReadAhead(streamReport(chat, question, analyses, passages));
    verdict = yield* judgeSufficiency(chat, question, analyses, o.maxExtraQueries, deadline, trace);
  } catch (error) {
    speculative?.discard();
    if (!(error instanceof StageTimeout)) throw error;
    yield* degraded(deps, request, error, o.topK, trace, signal);
    return;
  }
  if (signal?.aborted) return speculative?.discard();

  let stages = 1;
  if (!verdict.sufficient) {
    speculative?.discard();
    speculative = undefined;
    trace.iteration(4);
    const extra: SubQuery[] = verdict.additional.map((s, i) => ({
      ...s,
      id: analyses.length + i + 1,
      stage: 2,
    }));
    yield trace.thought(
      `A second stage searches for what is missing: ${verdict.missing.join('; ') || verdict.reason}`,
    );
    yield { type: 'subqueries', data: { items: extra.map((s) => ({ text: s.text, purpose: s.focus })) } };
    try {
      analyses = [
        ...analyses,
        ...(yield* runStage(deps, { ...stageRun, subqueries: extra, deadline: new Deadline(o.timeoutMs) })),
      ];
      stages = 2;
    } catch (error) {
      if (!(error instanceof StageTimeout)) throw error;
      yield trace.observation(
        `The second stage took too long (${reasonOf(error)}); answering from the first.`,
      );
    }
  }
  if (signal?.aborted) return;
  if (!chat) {
    const chained = yield* chainHops(deps, question, analyses, filters, o.topK, o.timeoutMs, trace);
    if (chained.length > analyses.length) stages = 2;
    analyses = chained;
  }
  if (signal?.aborted) return;

  yield { type: 'progress', data: { stage: 'answer', message: 'Writing the report' } };
  const passages = extractedPassages(analyses);
  const written = yield* report({ chat, question, analyses, passages, speculative, signal, trace });
  if (written === undefined) return;
  const confidence: Confidence =
    passages.length === 0 || written.degraded
      ? 'low'
      : chat
        ? verdict.confidence
        : verdict.confidence === 'high'
          ? 'medium'
          : verdict.confidence;
  yield* finishAnswer(deps, request, {
    answer: written.answer,
    confidence,
    passages,
    mode: 'two-stage',
    trace,
    reasoningSteps: stages,
  });
}

async function* decompose(
  chat: ChatModel | undefined,
  question: string,
  max: number,
  deadline: Deadline,
  trace: TraceRecorder,
): AsyncGenerator<QaEvent, SubQuery[]> {
  if (chat) {
    try {
      const result = await deadline.within(decomposeWithModel(chat, question, max));
      yield usageEvent('decompose', [{ ...result.usage, model: result.model }]);
      yield trace.thought(`Decomposed into ${result.subqueries.length} sub-queries.`);
      return result.subqueries;
    } catch (error) {
      if (error instanceof StageTimeout) throw error;
      yield trace.observation(
        `Decomposition failed (${reasonOf(error)}); sub-queries built from the question.`,
      );
    }
  }
  const subqueries = decomposeOffline(question, max);
  yield trace.thought(`Decomposed into ${subqueries.length} sub-queries (heuristic).`);
  return subqueries;
}

async function* judgeSufficiency(
  chat: ChatModel | undefined,
  question: string,
  analyses: SubQueryAnalysis[],
  maxExtra: number,
  deadline: Deadline,
  trace: TraceRecorder,
): AsyncGenerator<QaEvent, SufficiencyVerdict> {
  let verdict = judgeSufficiencyOffline(analyses, maxExtra);
  if (chat && analyses.some((a) => a.extracts.length > 0)) {
    try {
      const result = await deadline.within(judgeSufficiencyWithModel(chat, question, analyses, maxExtra));
      yield usageEvent('sufficiency', [{ ...result.usage, model: result.model }]);
      verdict = result.verdict;
    } catch (error) {
      if (error instanceof StageTimeout) throw error;
      verdict = {
        ...verdict,
        sufficient: true,
        additional: [],
        reason: `sufficiency judge failed: ${reasonOf(error)}`,
      };
    }
  }
  yield trace.observation(
    verdict.sufficient
      ? `The first stage suffices: ${verdict.reason}`
      : `A second stage is needed: ${verdict.reason}`,
  );
  return verdict;
}

/** What the report is written from. */
interface ReportInput {
  chat: ChatModel | undefined;
  question: string;
  analyses: SubQueryAnalysis[];
  passages: SearchHit[];
  /** The report the model began while the sufficiency judge ran, when it is kept. */
  speculative?: ReadAhead<ChatStreamEvent>;
  signal: AbortSignal | undefined;
  trace: TraceRecorder;
  /** Text written before the report (the degraded answer's notice). */
  prefix?: string;
}

/**
 * Streams the report (the speculative one when kept) and returns its text; undefined when aborted.
 * When the model fails before writing anything, the offline report of the same extracts stands in
 * (`degraded`, said in a `progress` event and the trace).
 */
async function* report(
  input: ReportInput,
): AsyncGenerator<QaEvent, { answer: string; degraded: boolean } | undefined> {
  const { chat, question, analyses, passages, speculative, signal, trace, prefix = '' } = input;
  const answer = prefix;
  if (prefix) yield { type: 'delta', data: { text: prefix } };
  if (!chat || passages.length === 0) {
    const text = chat ? nothingFound(question) : offlineReport(question, analyses, passages);
    yield* textDeltas(text);
    return { answer: answer + text, degraded: false };
  }
  const streamed = yield* relayModelAnswer(
    reportEvents(speculative?.drain() ?? streamReport(chat, question, analyses, passages)),
    signal,
  );
  if (streamed.status === 'aborted') {
    speculative?.discard();
    return undefined;
  }
  if (streamed.status === 'done') return { answer: answer + streamed.text, degraded: false };
  yield* modelAnswerFailed(question, streamed.error, trace);
  const text = offlineReport(question, analyses, passages);
  yield* textDeltas(text);
  return { answer: answer + text, degraded: true };
}

/** The report's stream as events: text deltas and the answer's usage. */
async function* reportEvents(events: AsyncIterable<ChatStreamEvent>): AsyncGenerator<QaEvent> {
  for await (const event of events) {
    if (event.type === 'delta') {
      if (event.text) yield { type: 'delta', data: { text: event.text } };
    } else yield { type: 'usage', data: { stage: 'answer', ...event.usage, model: event.model } };
  }
}

/** The answer from one hybrid retrieval for the question, when the stages ran out of time. */
async function* degraded(
  deps: QaDeps,
  request: AskRequest,
  timeout: StageTimeout,
  topK: number,
  trace: TraceRecorder,
  signal: AbortSignal | undefined,
): AsyncGenerator<QaEvent> {
  const zh = hasCjk(request.question);
  const seconds = (timeout.afterMs / 1000).toFixed(1);
  const message = zh
    ? `两阶段检索超过 ${seconds} 秒，改为单次检索回答。`
    : `The two-stage search took longer than ${seconds} s: answering from a single retrieval instead.`;
  yield { type: 'progress', data: { stage: 'degraded', message } };
  yield trace.observation(message);
  const hits = await retrievePassages(deps, request.question, requestFilters(request), topK);
  const chat = deps.providers.chat;
  const subquery: SubQuery = { id: 1, text: request.question, focus: request.question, stage: 1 };
  const analysis: SubQueryAnalysis = chat
    ? {
        subquery,
        answer: '',
        extracts: hits.map((hit) => ({ hit, text: hit.content })),
        confidence: 'low',
        missing: [],
      }
    : judgeOffline(subquery, hits, request.question);
  const passages = extractedPassages([analysis]);
  const written = yield* report({
    chat,
    question: request.question,
    analyses: [analysis],
    passages,
    signal,
    trace,
    prefix: `${message}\n\n`,
  });
  if (written === undefined) return;
  yield* finishAnswer(deps, request, {
    answer: written.answer,
    confidence: 'low',
    passages,
    mode: 'two-stage',
    trace,
    reasoningSteps: 1,
  });
}

function nothingFound(question: string): string {
  return hasCjk(question)
    ? '文档中没有找到与这个问题相关的内容。'
    : 'No passage in your documents matches this question.';
}
