import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

/** An event of the answer and summary streams (docs/events.md): its type names the SSE event. */
export interface StreamEvent {
  type: string;
  data: unknown;
}

/**
 * Answers with the events as Server-Sent Events through Hono's `streamSSE`: `event: <type>` and the
 * data as one line of JSON (JSON never holds a raw line break). `onAbort` runs when the client goes
 * away; an error thrown by the events becomes the last event when `onError` maps it to one.
 *
 * @example return sseResponse(c, ask(deps, request, signal), () => controller.abort());
 */
export function sseResponse(
  c: Context,
  events: AsyncIterable<StreamEvent>,
  onAbort: () => void,
  onError?: (error: unknown) => StreamEvent,
): Response {
  // Proxies such as nginx buffer responses unless told not to; streamSSE sets the rest.
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (sse) => {
    sse.onAbort(onAbort);
    const write = (event: StreamEvent) =>
      sse.writeSSE({ event: event.type, data: JSON.stringify(event.data) });
    try {
      for await (const event of events) await write(event);
    } catch (error) {
      if (!onError) throw error;
      await write(onError(error));
    }
  });
}
