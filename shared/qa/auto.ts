import { agentLoop } from './agent/loop.ts';
import type { QaDeps } from './deps.ts';
import { directAnswer } from './direct-answer.ts';
import type { QaEvent } from './events.ts';
import { checkQuality } from './quality.ts';
import type { AskRequest } from './request.ts';
import { retrieve } from './retrieve.ts';
import { offlineTableAnswer } from './tables/flow.ts';
import { questionTopicNames } from './topics.ts';
import { TraceRecorder } from './trace.ts';
import { compareVersionsFlow, versionsTarget } from './versions/index.ts';

/**
 * The `auto` flow (docs/spec.md#auto): standard retrieval while the question's topics are
 * identified, the quality check, then the direct answer when the passages suffice (mode `direct`),
 * otherwise the agent loop starting from those passages (mode `agent`). A "what changed" question
 * about a document with versions goes to the version comparison instead (docs/versions.md).
 */
export async function* autoFlow(
  deps: QaDeps,
  request: AskRequest,
  signal?: AbortSignal,
): AsyncGenerator<QaEvent> {
  const trace = new TraceRecorder();
  const compared = await versionsTarget(deps, request);
  if (compared) {
    yield* compareVersionsFlow(deps, request, trace, compared);
    return;
  }
  const topicsPromise = questionTopicNames(deps, request.question);
  // Handled when retrieval throws first (an aborted ask): awaited below otherwise.
  topicsPromise.catch(() => undefined);
  const hits = yield* retrieve(deps, request, trace, signal);
  const topics = await topicsPromise;
  if (signal?.aborted) return;
  if (topics.length > 0) yield trace.observation(`The question is about: ${topics.join(', ')}.`);
  // Offline, rows of a table are answered by the table planner (docs/tables.md).
  if (!deps.providers.chat && (yield* offlineTableAnswer(deps, request, hits, trace))) return;
  trace.iteration(2);
  const verdict = yield* checkQuality(deps, request.question, hits, trace);
  if (signal?.aborted) return;
  if (verdict.sufficient) {
    yield* directAnswer(deps, request, hits, verdict, trace, { topics, signal });
    return;
  }
  yield* agentLoop(deps, request, trace, { hits, reason: verdict.reason, topics, signal });
}

/** The `agent` flow: the agent loop from the start, without the standard fast path ("what changed" questions: as in `auto`). */
export async function* agentFlow(
  deps: QaDeps,
  request: AskRequest,
  signal?: AbortSignal,
): AsyncGenerator<QaEvent> {
  const compared = await versionsTarget(deps, request);
  if (compared) {
    yield* compareVersionsFlow(deps, request, new TraceRecorder(), compared);
    return;
  }
  const topics = await questionTopicNames(deps, request.question);
  yield* agentLoop(deps, request, new TraceRecorder(), { topics, signal });
}
