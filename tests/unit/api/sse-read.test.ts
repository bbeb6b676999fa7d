import { describe, expect, it } from 'vitest';
import { readSse } from '#shared/api/sse-read.ts';
import { parseSse } from '#shared/cli/http-backend.ts';

/** A body that arrives in the given pieces. */
function body(...pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces)
        controller.enqueue(typeof piece === 'string' ? new TextEncoder().encode(piece) : piece);
      controller.close();
    },
  });
}

async function frames(stream: ReadableStream<Uint8Array>) {
  const out = [];
  for await (const frame of readSse(stream)) out.push(frame);
  return out;
}

describe('readSse', () => {
  it('yields frames split across chunks, including multi-byte characters cut in two', async () => {
    const bytes = new TextEncoder().encode(
      'event: delta\ndata: {"text":"预算"}\n\nevent: done\ndata: {}\n\n',
    );
    const cut = 29; // the second byte of 预
    expect(await frames(body(bytes.slice(0, cut), bytes.slice(cut)))).toEqual([
      { event: 'delta', data: '{"text":"预算"}' },
      { event: 'done', data: '{}' },
    ]);
  });

  it('joins multi-line data, ignores comments and reads CRLF line ends', async () => {
    expect(await frames(body(': keep-alive\r\nevent: meta\r\ndata: one\r\ndata: two\r\n\r\n'))).toEqual([
      { event: 'meta', data: 'one\ntwo' },
    ]);
  });

  it('reads a CRLF cut between its CR and its LF', async () => {
    expect(await frames(body('event: a\r', '\ndata: 1\r\n\r', '\nevent: b\r\ndata: 2\r\n\r\n'))).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
    ]);
  });

  it('names a frame without an event line "message"', async () => {
    expect(await frames(body('data: x\n\n'))).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('yields a last frame that the stream ends without a blank line after', async () => {
    expect(await frames(body('event: error\ndata: {"code":"x"}'))).toEqual([
      { event: 'error', data: '{"code":"x"}' },
    ]);
  });
});

describe('parseSse (the CLI)', () => {
  it('reads CRLF line ends and keeps a last event without a trailing blank line', async () => {
    const events = [];
    const stream = body('event: meta\r\ndata: {"mode":"auto"}\r\n\r\n', 'event: done\r\ndata: {"ok":true}');
    for await (const event of parseSse(stream)) events.push(event);
    expect(events).toEqual([
      { type: 'meta', data: { mode: 'auto' } },
      { type: 'done', data: { ok: true } },
    ]);
  });
});
