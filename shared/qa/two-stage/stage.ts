import { reasonOf } from '#shared/errors.ts';
import type { ChatModel } from '#shared/llm/types.ts';
import type { SearchFilters } from '#shared/search/types.ts';
import type { QaDeps } from '../deps.ts';
import type { QaEvent } from '../events.ts';
import type { TraceRecorder } from '../trace.ts';
import type { Deadline } from './deadline.ts';
import { judgeOffline, judgeWithModel } from './judge.ts';
import { retrieveSubQuery } from './retrieve.ts';
import type { SubQuery, SubQueryAnalysis } from './types.ts';

/** Token usage summed over parallel calls of one stage. */
export function usageEvent(
  stage: string,
  calls: { inputTokens: number; outputTokens: number; model: string }[],
): QaEvent {
  return {
    type: 'usage',
    data: {
      stage,
      inputTokens: calls.reduce((n, c) => n + c.inputTokens, 0),
      outputTokens: calls.reduce((n, c) => n + c.outputTokens, 0),
      model: calls.find((c) => c.model)?.model ?? '',
    },
  };
}

/** What one stage searches for and judges with. */
export interface StageRun {
  /** The judging model; offline (undefined) the score-based judge. */
  chat: ChatModel | undefined;
  question: string;
  subqueries: SubQuery[];
  filters: SearchFilters;
  topK: number;
  deadline: Deadline;
  trace: TraceRecorder;
}

/**
 * One stage of the two-stage mode (docs/spec.md#two-stage): hybrid retrieval for every sub-query in
 * parallel, then the relevance judges in parallel (the model, or offline the score-based judge; a
 * judge whose model call fails falls back to the offline one for its sub-query). Both steps count
 * against the deadline.
 */
export async function* runStage(deps: QaDeps, run: StageRun): AsyncGenerator<QaEvent, SubQueryAnalysis[]> {
  const { chat, question, subqueries, filters, topK, deadline, trace } = run;
  const stage = subqueries[0]?.stage ?? 1;
  yield {
    type: 'progress',
    data: { stage: `retrieve_${stage}`, message: `Searching for ${subqueries.length} sub-queries` },
  };
  const hitLists = await deadline.within(
    Promise.all(subqueries.map((s) => retrieveSubQuery(deps, s, filters, topK))),
  );
  for (const [i, s] of subqueries.entries())
    yield trace.action('hybrid_search', `“${s.text}”: ${hitLists[i]?.length ?? 0} passage(s).`);

  yield { type: 'progress', data: { stage: `judge_${stage}`, message: 'Judging the passages' } };
  const judged = await deadline.within(
    Promise.all(
      subqueries.map(async (s, i) => {
        const hits = hitLists[i] ?? [];
        if (!chat) return { analysis: judgeOffline(s, hits, question) };
        try {
          return await judgeWithModel(chat, question, s, hits);
        } catch (error) {
          return { analysis: judgeOffline(s, hits, question), failure: reasonOf(error) };
        }
      }),
    ),
  );
  if (chat)
    yield usageEvent(
      'judge',
      judged.flatMap((j) => ('usage' in j && j.usage ? [{ ...j.usage, model: j.model }] : [])),
    );
  for (const j of judged) {
    const a = j.analysis;
    const note = 'failure' in j && j.failure ? ` (judge failed: ${j.failure}; judged offline)` : '';
    const dropped =
      'dropped' in j && j.dropped ? `; ${j.dropped} extract(s) not found verbatim were dropped` : '';
    yield trace.observation(
      `Sub-query ${a.subquery.id}: ${a.extracts.length} extract(s), confidence ${a.confidence}${dropped}${note}.`,
    );
  }
  return judged.map((j) => j.analysis);
}
