import { DropQAError, errorBody } from '#shared/errors.ts';
import { errorFields, log } from '#shared/log/logger.ts';
import { withEarlierTurns } from './conversation/earlier-turns-chat.ts';
import { rewriteQuestion } from './conversation/rewrite.ts';
import { startTurn } from './conversation/start.ts';
import type { Owner } from './conversation/store.ts';
import type { QaDeps } from './deps.ts';
import type { QaEvent } from './events.ts';
import { FLOWS } from './flows.ts';
import type { AskRequest } from './request.ts';

export type { QaDeps } from './deps.ts';

const DEFAULT_HISTORY_TOKENS = 1500;

/**
 * Answers a question as a stream of events (docs/events.md) inside a conversation: the turn is
 * opened (`startTurn`, unless the caller did already), then `meta` (with the conversation's id), on
 * a follow-up `rewrite` (the standalone question retrieval uses), then the mode's flow (`FLOWS`):
 * progress, trace, `delta` text, `references`, usage, and finally one `done` with the whole
 * response — or one `error`. The answering model sees the recent turns. A mode without a flow yet
 * gets one `mode_unavailable` error. Stops quietly when `signal` aborts.
 *
 * @example for await (const event of ask(deps, askRequestSchema.parse({ question: '预算是多少？' }))) ...
 */
export async function* ask(
  deps: QaDeps,
  body: AskRequest,
  signal?: AbortSignal,
  owner: Owner = null,
): AsyncIterable<QaEvent> {
  const mode = body.mode ?? 'auto';
  const flow = FLOWS[mode];
  if (!flow) {
    yield {
      type: 'error',
      data: {
        code: 'mode_unavailable',
        message: `The '${mode}' mode is not available yet: it arrives with the question-answering work. Use 'auto', 'standard' or 'agent'.`,
        reason: 'mode_unavailable',
        params: { mode },
      },
    };
    return;
  }
  let request: AskRequest;
  try {
    request = body.turn ? body : await startTurn(deps.db, deps.access, body, owner);
  } catch (error) {
    yield { type: 'error', data: errorData(error) };
    return;
  }
  const turn = request.turn;
  yield {
    type: 'meta',
    data: {
      mode,
      provider: deps.providers.label,
      question: turn?.asked ?? request.question,
      ...(request.version == null ? {} : { version: request.version }),
      ...(turn ? { conversation_id: turn.conversationId } : {}),
    },
  };
  try {
    const budget = deps.qa?.historyTokens ?? DEFAULT_HISTORY_TOKENS;
    let flowDeps = deps;
    if (turn && turn.earlier.length > 0) {
      const chat = deps.providers.chat;
      const rewrite = yield* rewriteQuestion(chat, turn.asked, turn.earlier, budget);
      if (signal?.aborted) return;
      yield { type: 'rewrite', data: rewrite };
      request = { ...request, question: rewrite.standalone_question, turn: { ...turn, rewrite } };
      if (chat)
        flowDeps = {
          ...deps,
          providers: { ...deps.providers, chat: withEarlierTurns(chat, turn.earlier, budget) },
        };
    }
    yield* flow(flowDeps, { ...request, mode }, signal);
  } catch (error) {
    if (signal?.aborted) return;
    yield { type: 'error', data: errorData(error) };
  }
}

function errorData(error: unknown): ReturnType<typeof errorBody> {
  if (error instanceof DropQAError) return errorBody(error);
  log.error('ask: failed', errorFields(error, { stack: true }));
  return {
    code: 'internal_error',
    message: 'The question could not be answered because of an internal error.',
  };
}
