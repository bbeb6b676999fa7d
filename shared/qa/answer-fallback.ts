import { ProviderError, reasonOf } from '#shared/errors.ts';
import { hasCjk } from '#shared/text/segment.ts';
import type { QaEvent } from './events.ts';
import type { TraceRecorder } from './trace.ts';

/** How a model's streamed answer ended. */
export type StreamedAnswer =
  | { status: 'done'; text: string }
  | { status: 'aborted' }
  /** The model failed before its first words: nothing was streamed, the caller answers without it. */
  | { status: 'failed'; error: ProviderError };

/**
 * Passes a model answer's events on (delta, usage) and collects its text. A provider failure before
 * the first delta is returned, not thrown, so the flow can answer from the passages instead
 * (degrade rather than fail: docs/spec.md#degrading); once text has been streamed it cannot be
 * taken back, and a failure stays an error.
 */
export async function* relayModelAnswer(
  events: AsyncIterable<QaEvent>,
  signal?: AbortSignal,
): AsyncGenerator<QaEvent, StreamedAnswer> {
  let text = '';
  try {
    for await (const event of events) {
      if (signal?.aborted) return { status: 'aborted' };
      if (event.type === 'delta') text += event.data.text;
      yield event;
    }
  } catch (error) {
    if (error instanceof ProviderError && text === '') return { status: 'failed', error };
    throw error;
  }
  return { status: 'done', text };
}

/** Says, as a `progress` event (stage `degraded`) and in the trace, that the model failed to answer. */
export function* modelAnswerFailed(
  question: string,
  error: unknown,
  trace: TraceRecorder,
): Generator<QaEvent> {
  const message = hasCjk(question)
    ? `模型回答时出错（${reasonOf(error)}）：改为直接引用原文回答，置信度低。`
    : `The model failed while answering (${reasonOf(error)}): quoting the passages instead, low confidence.`;
  yield { type: 'progress', data: { stage: 'degraded', message } };
  yield trace.observation(message);
}
