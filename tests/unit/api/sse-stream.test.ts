import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { readSse } from '#shared/api/sse-read.ts';
import { type SseOptions, type StreamEvent, sseResponse } from '#shared/api/sse-stream.ts';

async function* of(...events: StreamEvent[]) {
  yield* events;
}

async function serve(events: AsyncIterable<StreamEvent>, options: SseOptions = {}) {
  const app = new Hono();
  app.get('/', (c) => sseResponse(c, events, () => {}, options));
  const response = await app.request('/');
  const text = await response.clone().text();
  const frames = [];
  for await (const frame of readSse(response.body as ReadableStream<Uint8Array>)) frames.push(frame);
  return { response, text, frames };
}

describe('sseResponse', () => {
  it('streams each event as an SSE event of its type with one line of JSON data', async () => {
    const delta = { type: 'delta', data: { text: '第一行\n\n第二行 "quoted"\r\n' } };
    const { response, text, frames } = await serve(of({ type: 'meta', data: { mode: 'auto' } }, delta));
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(text.split('\n').filter((line) => line.startsWith('data:'))).toHaveLength(2);
    expect(frames.map((f) => ({ event: f.event, data: JSON.parse(f.data) }))).toEqual([
      { event: 'meta', data: { mode: 'auto' } },
      { event: 'delta', data: delta.data },
    ]);
  });

  it('ends with the event onError makes of a failure', async () => {
    async function* failing() {
      yield { type: 'delta', data: { text: 'a' } };
      throw new Error('boom');
    }
    const { frames } = await serve(failing(), {
      onError: (error) => ({ type: 'error', data: { message: (error as Error).message } }),
    });
    expect(frames).toEqual([
      { event: 'delta', data: '{"text":"a"}' },
      { event: 'error', data: '{"message":"boom"}' },
    ]);
  });

  it('sends a keepalive comment while nothing else is sent, and none while events flow', async () => {
    const pause = (ms: number) => new Promise((resume) => setTimeout(resume, ms));
    async function* slow() {
      yield { type: 'meta', data: {} };
      // A paused database: nothing to send for a while (five beats of 20 ms).
      await pause(110);
      yield { type: 'delta', data: { text: 'a' } };
      for (let i = 0; i < 5; i++) {
        await pause(5);
        yield { type: 'delta', data: { text: 'b' } };
      }
    }
    const { text, frames } = await serve(slow(), { heartbeatMs: 20 });
    const [quiet] = text.split('event: delta\n');
    expect(quiet?.match(/^: keepalive$/gm)?.length).toBeGreaterThanOrEqual(3);
    expect(text.split('event: delta\n').slice(2).join('')).not.toContain(': keepalive');
    // Readers skip comments: the events are as sent.
    expect(frames.map((f) => f.event)).toEqual([
      'meta',
      'delta',
      'delta',
      'delta',
      'delta',
      'delta',
      'delta',
    ]);
  });

  it("beats every 15 s by default, under CloudFront's 60 s origin read timeout", async () => {
    vi.useFakeTimers();
    try {
      let release: () => void = () => {};
      async function* waiting() {
        yield { type: 'meta', data: {} };
        await new Promise<void>((resume) => {
          release = resume;
        });
        yield { type: 'done', data: {} };
      }
      const app = new Hono();
      app.get('/', (c) => sseResponse(c, waiting(), () => {}));
      const response = await app.request('/');
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      const read = async () => {
        const { value } = await reader.read();
        text += decoder.decode(value);
      };
      await read();
      expect(text).toBe('event: meta\ndata: {}\n\n');
      await vi.advanceTimersByTimeAsync(14_999);
      expect(text).not.toContain('keepalive');
      await vi.advanceTimersByTimeAsync(1);
      await read();
      expect(text.endsWith(': keepalive\n\n')).toBe(true);
      await vi.advanceTimersByTimeAsync(15_000);
      await read();
      expect(text.match(/: keepalive/g)).toHaveLength(2);
      release();
      await read();
      expect(text.endsWith('event: done\ndata: {}\n\n')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
