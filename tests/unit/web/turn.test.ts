import { describe, expect, it } from 'vitest';
import { applyEvent, newTurn } from '../../../web/src/lib/turn.ts';

describe('applyEvent', () => {
  it('builds the answer from deltas and keeps the done response', () => {
    const turn = newTurn('q', 'auto');
    applyEvent(turn, 'meta', { mode: 'auto', provider: 'offline (x)' });
    applyEvent(turn, 'delta', { text: 'Hello ' });
    applyEvent(turn, 'delta', { text: 'world [1]' });
    applyEvent(turn, 'done', { response: { answer: 'Hello world [1]', confidence: 'low', sources: [] } });
    expect(turn.provider).toBe('offline (x)');
    expect(turn.answer).toBe('Hello world [1]');
    expect(turn.state).toBe('done');
    expect(turn.response?.confidence).toBe('low');
  });

  it('keeps the documents-mode references beside the sources', () => {
    const turn = newTurn('q', 'documents');
    applyEvent(turn, 'references', {
      sources: [{ citation: 1 }],
      references: [{ ref_id: 'DOC-00000000-IMAGE-1', chunk_type: 'image', image_url: '/api/v1/x.png' }],
    });
    expect(turn.sources).toHaveLength(1);
    expect(turn.references[0]?.image_url).toBe('/api/v1/x.png');
  });

  it('records an error and clears the progress line', () => {
    const turn = newTurn('q', 'agent');
    applyEvent(turn, 'progress', { stage: 'stage1', current: 1, total: 3, doc_name: 'a.md' });
    applyEvent(turn, 'error', { code: 'mode_unavailable', message: 'Not yet' });
    expect(turn.state).toBe('error');
    expect(turn.error).toEqual({ code: 'mode_unavailable', message: 'Not yet' });
    expect(turn.progress).toBeUndefined();
  });

  it('keeps why the model was not used after the answer is done', () => {
    const turn = newTurn('q', 'agent');
    applyEvent(turn, 'progress', { stage: 'retrieve' });
    expect(turn.degraded).toBeUndefined();
    applyEvent(turn, 'progress', { stage: 'degraded', message: 'the chat model failed (HTTP 500)' });
    applyEvent(turn, 'done', { response: { answer: 'quoted', confidence: 'low', sources: [] } });
    expect(turn.progress).toBeUndefined();
    expect(turn.degraded).toBe('the chat model failed (HTTP 500)');
  });

  it('ignores events it does not know', () => {
    const turn = newTurn('q', 'auto');
    applyEvent(turn, 'something-new', { text: 'x' });
    expect(turn.answer).toBe('');
    expect(turn.state).toBe('streaming');
  });
});
