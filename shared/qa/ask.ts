import { DropQAError } from '#shared/errors.ts';
import type { QaDeps } from './deps.ts';
import type { QaEvent } from './events.ts';
import { FLOWS } from './flows.ts';
import type { AskRequest } from './request.ts';

export type { QaDeps } from './deps.ts';

/**
 * Answers a question as a stream of events (docs/events.md): `meta` first (before any database or
 * model work, so the first event comes at once), then the mode's flow (`FLOWS`): progress, trace,
 * `delta` text, `references`, usage, and finally one `done` with the whole response — or one
 * `error`. A mode without a flow yet gets one `mode_unavailable` error. Stops quietly when `signal`
 * aborts.
 *
 * @example for await (const event of ask(deps, askRequestSchema.parse({ question: '预算是多少？' }))) ...
 */
export async function* ask(deps: QaDeps, request: AskRequest, signal?: AbortSignal): AsyncIterable<QaEvent> {
  const mode = request.mode ?? 'auto';
  const flow = FLOWS[mode];
  if (!flow) {
    yield {
      type: 'error',
      data: {
        code: 'mode_unavailable',
        message: `The '${mode}' mode is not available yet: it arrives with the question-answering work. Use 'auto', 'standard' or 'agent'.`,
      },
    };
    return;
  }
  yield {
    type: 'meta',
    data: {
      mode,
      provider: deps.providers.label,
      question: request.question,
      ...(request.version === undefined ? {} : { version: request.version }),
    },
  };
  try {
    yield* flow(deps, { ...request, mode }, signal);
  } catch (error) {
    if (signal?.aborted) return;
    yield { type: 'error', data: errorData(error) };
  }
}

function errorData(error: unknown): { code: string; message: string } {
  if (error instanceof DropQAError) return { code: error.code, message: error.message };
  console.error('ask failed:', error);
  return {
    code: 'internal_error',
    message: 'The question could not be answered because of an internal error.',
  };
}
