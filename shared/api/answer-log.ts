import type { ExecutionUsage } from '../llm/usage-tracking.ts';
import { type LogFields, log } from '../log/logger.ts';
import type { StreamEvent } from './sse-stream.ts';

/**
 * The events of one answer or summary stream, passed through unchanged, with one log line when the
 * stream ends: the mode asked for and the one that answered, how it ended, when the first event and
 * the first answer text were written, the total time, and what the model calls cost (`usage`, counted
 * by `trackUsage` on this request's providers). Identifiers and numbers only: no question, no text.
 *
 * @example
 * const tracked = trackUsage(rt.qa.providers);
 * return sseResponse(c, withAnswerLog('ask', ask({ ...rt.qa, providers: tracked.providers }, request), tracked.usage), abort);
 */
export async function* withAnswerLog<E extends StreamEvent>(
  route: string,
  events: AsyncIterable<E>,
  usage: ExecutionUsage,
): AsyncIterable<E> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const fields: LogFields = { route, outcome: 'stopped' };
  try {
    for await (const event of events) {
      fields.firstEventMs ??= since();
      const data = (event.data ?? {}) as Record<string, unknown>;
      if (event.type === 'meta') {
        fields.requestedMode = stringOr(data.mode);
        fields.conversationId = stringOr(data.conversation_id);
      } else if (event.type === 'delta') fields.firstTextMs ??= since();
      else if (event.type === 'done') {
        const response = (data.response ?? {}) as Record<string, unknown>;
        fields.outcome = 'answered';
        fields.mode = stringOr(response.mode);
        fields.confidence = stringOr(response.confidence);
      } else if (event.type === 'error') {
        fields.outcome = 'error';
        fields.errorCode = stringOr(data.code);
      }
      yield event;
    }
  } catch (error) {
    fields.outcome = 'failed';
    throw error;
  } finally {
    log.info(`${route}: request`, {
      ...fields,
      totalMs: since(),
      modelCalls: usage.chatCalls,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      embedCalls: usage.embedCalls,
    });
  }
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
