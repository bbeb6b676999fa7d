import { describe, expect, it } from 'vitest';
import { encodeSse, type QaEvent } from '#shared/qa/events.ts';
import { askRequestSchema } from '#shared/qa/request.ts';

/** Parses SSE frames the way a browser's EventSource does. */
function parseFrames(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? '';
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) };
    });
}

describe('encodeSse', () => {
  it('writes one event frame with the type and the JSON data', () => {
    expect(encodeSse({ type: 'delta', data: { text: 'Hi' } })).toBe('event: delta\ndata: {"text":"Hi"}\n\n');
  });

  it('keeps multi-line and non-ASCII text inside a single data line', () => {
    const event: QaEvent = { type: 'delta', data: { text: '第一行\n\n第二行 "quoted"\r\n' } };
    const frame = encodeSse(event);
    expect(frame.split('\n').filter((l) => l.startsWith('data: '))).toHaveLength(1);
    expect(frame.endsWith('\n\n')).toBe(true);
    expect(parseFrames(frame)).toEqual([{ event: 'delta', data: event.data }]);
  });

  it('round-trips a stream of several events', () => {
    const events: QaEvent[] = [
      { type: 'meta', data: { mode: 'auto', provider: 'offline', question: '预算？' } },
      { type: 'progress', data: { stage: 'retrieve', current: 1, total: 3, doc_name: 'a.md' } },
      { type: 'error', data: { code: 'mode_unavailable', message: 'later' } },
    ];
    expect(parseFrames(events.map(encodeSse).join(''))).toEqual(
      events.map((e) => ({ event: e.type, data: e.data })),
    );
  });
});

describe('askRequestSchema', () => {
  it('defaults the mode to auto and trims the question', () => {
    expect(askRequestSchema.parse({ question: '  What is the budget?  ' })).toEqual({
      question: 'What is the budget?',
      mode: 'auto',
    });
  });

  it('treats a null version as the current version', () => {
    expect(askRequestSchema.parse({ question: 'q', version: null }).version).toBeUndefined();
    expect(askRequestSchema.parse({ question: 'q', version: 2 }).version).toBe(2);
  });

  it('rejects an empty or too long question, an unknown mode and malformed ids', () => {
    expect(askRequestSchema.safeParse({ question: '   ' }).success).toBe(false);
    expect(askRequestSchema.safeParse({ question: 'x'.repeat(2001) }).success).toBe(false);
    expect(askRequestSchema.safeParse({ question: 'q', mode: 'magic' }).success).toBe(false);
    expect(askRequestSchema.safeParse({ question: 'q', document_ids: ['nope'] }).success).toBe(false);
    expect(askRequestSchema.safeParse({ question: 'q', version: 0 }).success).toBe(false);
  });
});
