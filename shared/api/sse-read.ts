import { createParser } from 'eventsource-parser';

/** One Server-Sent Events message: its `event:` name ("message" when it has none) and its data. */
export interface SseFrame {
  event: string;
  data: string;
}

/**
 * Reads a streamed response body as SSE messages, one at a time, as they arrive (eventsource-parser:
 * CR, LF and CRLF line ends, comments, multi-line data, chunks cut anywhere). A last message the
 * stream ends without a blank line after is kept, not dropped. Used by the web client and the CLI.
 *
 * @example for await (const { event, data } of readSse(response.body)) console.log(event, data)
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const arrived: SseFrame[] = [];
  const parser = createParser({
    onEvent: (message) => arrived.push({ event: message.event ?? 'message', data: message.data }),
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        // Two line ends close a last message left open; after a complete one they are empty lines.
        parser.feed(`${decoder.decode()}\n\n`);
      } else parser.feed(decoder.decode(value, { stream: true }));
      yield* arrived.splice(0);
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
