import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

/** An event of the answer and summary streams (docs/events.md): its type names the SSE event. */
export interface StreamEvent {
  type: string;
  data: unknown;
}

/**
 * Quiet time after which the stream sends a comment line. CloudFront drops an origin response that
 * sends nothing for 60 s (its origin read timeout), and a paused Aurora takes up to ~55 s to answer
 * the first statement: a beat every 15 s keeps the answer alive through that.
 */
export const SSE_HEARTBEAT_MS = 15_000;

/** An SSE comment: clients ignore it (EventSource and `readSse` alike); proxies see bytes flow. */
const KEEPALIVE = ': keepalive\n\n';

export interface SseOptions {
  /** An error thrown by the events becomes the last event when this maps it to one. */
  onError?: (error: unknown) => StreamEvent;
  /** Send `: keepalive` after this many quiet milliseconds (default `SSE_HEARTBEAT_MS`). */
  heartbeatMs?: number;
}

/**
 * Answers with the events as Server-Sent Events through Hono's `streamSSE`: `event: <type>` and the
 * data as one line of JSON (JSON never holds a raw line break). `onAbort` runs when the client goes
 * away. While no event is sent for `heartbeatMs`, a `: keepalive` comment line is (see
 * `SSE_HEARTBEAT_MS`).
 *
 * @example return sseResponse(c, ask(deps, request, signal), () => controller.abort());
 */
export function sseResponse(
  c: Context,
  events: AsyncIterable<StreamEvent>,
  onAbort: () => void,
  options: SseOptions = {},
): Response {
  const { onError, heartbeatMs = SSE_HEARTBEAT_MS } = options;
  // Proxies such as nginx buffer responses unless told not to; streamSSE sets the rest.
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (sse) => {
    sse.onAbort(onAbort);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let ended = false;
    const quiet = () => {
      clearTimeout(timer);
      if (ended) return;
      timer = setTimeout(() => {
        if (ended || sse.aborted) return;
        void sse.write(KEEPALIVE).then(quiet);
      }, heartbeatMs);
    };
    const write = async (event: StreamEvent) => {
      clearTimeout(timer);
      await sse.writeSSE({ event: event.type, data: JSON.stringify(event.data) });
      quiet();
    };
    quiet();
    try {
      for await (const event of events) await write(event);
    } catch (error) {
      if (!onError) throw error;
      await write(onError(error));
    } finally {
      ended = true;
      clearTimeout(timer);
    }
  });
}
