import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { readSse } from '#shared/api/sse-read.ts';
import { type StreamEvent, sseResponse } from '#shared/api/sse-stream.ts';

async function* of(...events: StreamEvent[]) {
  yield* events;
}

async function serve(events: AsyncIterable<StreamEvent>, onError?: (error: unknown) => StreamEvent) {
  const app = new Hono();
  app.get('/', (c) => sseResponse(c, events, () => {}, onError));
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
    const { frames } = await serve(failing(), (error) => ({
      type: 'error',
      data: { message: (error as Error).message },
    }));
    expect(frames).toEqual([
      { event: 'delta', data: '{"text":"a"}' },
      { event: 'error', data: '{"message":"boom"}' },
    ]);
  });
});
