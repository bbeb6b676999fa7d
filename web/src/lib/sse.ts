/** One Server-Sent Events frame: its `event:` name and its `data:` lines joined. */
export interface SseFrame {
  event: string;
  data: string;
}

/**
 * Splits a text buffer into complete SSE frames and the unfinished rest (frames end at a blank line).
 *
 * @example takeFrames('event: delta\ndata: {"text":"a"}\n\nevent: de') // frames: [delta], rest: 'event: de'
 */
export function takeFrames(buffer: string): { frames: SseFrame[]; rest: string } {
  const normalized = buffer.replace(/\r\n?/g, '\n');
  const blocks = normalized.split('\n\n');
  const rest = blocks.pop() ?? '';
  const frames: SseFrame[] = [];
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) frames.push({ event, data: data.join('\n') });
  }
  return { frames, rest };
}

/** Reads a streamed response body as SSE frames, one at a time, as they arrive. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const { frames, rest } = takeFrames(done ? `${buffer}\n\n` : buffer);
      buffer = rest;
      yield* frames;
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
