import type { QaDeps } from './deps.ts';
import { directAnswer } from './direct-answer.ts';
import type { QaEvent } from './events.ts';
import { checkQuality } from './quality.ts';
import type { AskRequest } from './request.ts';
import { retrieve } from './retrieve.ts';
import { offlineTableAnswer } from './tables/flow.ts';
import { TraceRecorder } from './trace.ts';

/**
 * The standard RAG flow (docs/spec.md#standard), mode `standard`: hybrid retrieval (top K, the
 * request's filters), the quality check, and always the direct answer (with low confidence when the
 * check finds the passages insufficient), then `references` and `done`.
 */
export async function* standardFlow(
  deps: QaDeps,
  request: AskRequest,
  signal?: AbortSignal,
): AsyncGenerator<QaEvent> {
  const trace = new TraceRecorder();
  const hits = yield* retrieve(deps, request, trace, signal);
  if (signal?.aborted) return;
  if (!deps.providers.chat && (yield* offlineTableAnswer(deps, request, hits, trace))) return;
  trace.iteration(2);
  const verdict = yield* checkQuality(deps, request.question, hits, trace);
  if (signal?.aborted) return;
  yield* directAnswer(deps, request, hits, verdict, trace, { signal });
}
