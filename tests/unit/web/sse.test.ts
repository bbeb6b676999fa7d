import { describe, expect, it } from 'vitest';
import { readSse, takeFrames } from '../../../web/src/lib/sse.ts';

describe('takeFrames', () => {
  it('returns complete frames and keeps an unfinished one as the rest', () => {
    const { frames, rest } = takeFrames('event: delta\ndata: {"text":"a"}\n\nevent: done\ndata: {"x"');
    expect(frames).toEqual([{ event: 'delta', data: '{"text":"a"}' }]);
    expect(rest).toBe('event: done\ndata: {"x"');
  });

  it('joins multi-line data, ignores comments and reads CRLF line ends', () => {
    const { frames } = takeFrames(': keep-alive\r\nevent: meta\r\ndata: one\r\ndata: two\r\n\r\n');
    expect(frames).toEqual([{ event: 'meta', data: 'one\ntwo' }]);
  });

  it('names a frame without an event line "message"', () => {
    expect(takeFrames('data: x\n\n').frames).toEqual([{ event: 'message', data: 'x' }]);
  });
});

describe('readSse', () => {
  it('yields frames split across chunks, including multi-byte characters cut in two', async () => {
    const bytes = new TextEncoder().encode(
      'event: delta\ndata: {"text":"预算"}\n\nevent: done\ndata: {}\n\n',
    );
    const cut = 29; // the second byte of 预
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const frames = [];
    for await (const frame of readSse(body)) frames.push(frame);
    expect(frames).toEqual([
      { event: 'delta', data: '{"text":"预算"}' },
      { event: 'done', data: '{}' },
    ]);
  });

  it('yields a last frame that the stream ends without a blank line after', async () => {
    const body = new Response('event: error\ndata: {"code":"x"}').body as ReadableStream<Uint8Array>;
    const frames = [];
    for await (const frame of readSse(body)) frames.push(frame);
    expect(frames).toEqual([{ event: 'error', data: '{"code":"x"}' }]);
  });
});
