import { reasonOf } from '#shared/errors.ts';
import type { SearchFilters } from '#shared/search/types.ts';
import type { QaDeps } from '../deps.ts';
import type { QaEvent } from '../events.ts';
import { bridgeEntities, hopQuery, isMultiHop, MAX_BRIDGES, MAX_HOPS } from '../hops.ts';
import type { TraceRecorder } from '../trace.ts';
import { Deadline, StageTimeout } from './deadline.ts';
import { runStage } from './stage.ts';
import type { SubQuery, SubQueryAnalysis } from './types.ts';

/**
 * The next hop's sub-queries without a model (docs/spec.md#multi-hop): for a question asking for
 * more than the first fact ("which other project…"), the names the extracts so far state that the
 * question and the earlier hops do not (`bridgeEntities`), each searched with the question's terms
 * no extract holds yet. Empty when the question is not multi-hop or nothing new was found.
 *
 * @example nextHop(question, analyses, []) // [{ text: 'Dana Whitfield run result', focus: 'Dana Whitfield' }]
 */
export function nextHop(
  question: string,
  analyses: SubQueryAnalysis[],
  earlier: string[],
): Omit<SubQuery, 'id' | 'stage'>[] {
  if (!isMultiHop(question)) return [];
  const quoted = analyses.flatMap((a) => a.extracts.map((e) => e.text));
  const entities = bridgeEntities([question, ...earlier].join(' '), quoted, MAX_BRIDGES);
  return entities.map((entity) => ({ text: hopQuery(entity, question, quoted), focus: entity }));
}

/**
 * Offline, after the stages: up to `MAX_HOPS` more rounds of the second stage, each searching for
 * what the previous extracts named (`nextHop`), announced with a `subqueries` event; returns every
 * analysis, the hops' after the stages'. A hop that outlasts `timeoutMs` ends the chain.
 */
export async function* chainHops(
  deps: QaDeps,
  question: string,
  analyses: SubQueryAnalysis[],
  filters: SearchFilters,
  topK: number,
  timeoutMs: number,
  trace: TraceRecorder,
): AsyncGenerator<QaEvent, SubQueryAnalysis[]> {
  const hops: string[] = [];
  let all = analyses;
  for (let round = 0; round < MAX_HOPS; round++) {
    const next = nextHop(question, all, hops);
    if (next.length === 0) break;
    hops.push(...next.map((s) => s.focus));
    const subqueries: SubQuery[] = next.map((s, i) => ({ ...s, id: all.length + i + 1, stage: 2 }));
    yield trace.thought(
      `The passages name ${next.map((s) => s.focus).join(', ')}: the next hop searches for ${next.length > 1 ? 'them' : 'it'}.`,
    );
    yield {
      type: 'subqueries',
      data: { items: subqueries.map((s) => ({ text: s.text, purpose: s.focus })) },
    };
    try {
      const found = yield* runStage(deps, {
        chat: undefined,
        question,
        subqueries,
        filters,
        topK,
        deadline: new Deadline(timeoutMs),
        trace,
      });
      all = [...all, ...found];
    } catch (error) {
      if (!(error instanceof StageTimeout)) throw error;
      yield trace.observation(`The hop took too long (${reasonOf(error)}); answering from what was found.`);
      break;
    }
  }
  return all;
}
