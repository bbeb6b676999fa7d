import { reasonOf } from '#shared/errors.ts';
import { hasCjk } from '#shared/index/segment.ts';
import type { QaDeps } from '../deps.ts';
import type { QaEvent } from '../events.ts';
import { retrieve } from '../retrieve.ts';
import type { TraceRecorder } from '../trace.ts';
import { synthesize } from './synthesize.ts';
import type { AgentState } from './types.ts';

/**
 * What the agent does when the model fails while planning (degrade rather than fail:
 * docs/spec.md#degrading): says why in a `progress` event (stage `degraded`) and in the trace, runs
 * the standard retrieval when nothing was gathered yet, and answers from the passages without the
 * model (the extractive answer, quoting them verbatim) with low confidence.
 */
export async function* answerWithoutPlanner(
  deps: QaDeps,
  state: AgentState,
  trace: TraceRecorder,
  error: unknown,
  options: { topics?: string[]; signal?: AbortSignal } = {},
): AsyncGenerator<QaEvent> {
  const message = hasCjk(state.context.question)
    ? `模型在规划下一步时出错（${reasonOf(error)}）：改为标准检索，直接引用原文回答，置信度低。`
    : `The model failed while planning (${reasonOf(error)}): answering from the standard retrieval with passages quoted verbatim, low confidence.`;
  yield { type: 'progress', data: { stage: 'degraded', message } };
  yield trace.observation(message);
  if (state.evidence.size === 0) state.evidence.add(yield* retrieve(deps, state.context.request, trace));
  if (options.signal?.aborted) return;
  const withoutModel: QaDeps = { ...deps, providers: { ...deps.providers, chat: undefined } };
  yield* synthesize(withoutModel, state, trace, { forced: true, ...options });
}
