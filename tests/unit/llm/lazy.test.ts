import { describe, expect, it } from 'vitest';
import { LazyChat, LazyEmbedder } from '#shared/llm/lazy.ts';
import type { ChatModel, Embedder } from '#shared/llm/types.ts';

const answering: ChatModel = {
  provider: 'openai',
  complete: async () => ({ text: 'loaded', model: 'm', usage: { inputTokens: 0, outputTokens: 0 } }),
  async *stream() {
    yield { type: 'delta', text: 'streamed' };
  },
  structured: async () => {
    throw new Error('unused');
  },
};

describe('LazyChat', () => {
  it('loads the model once, on the first call', async () => {
    let loads = 0;
    const chat = new LazyChat('openai', async () => {
      loads++;
      return answering;
    });
    expect(loads).toBe(0);
    await chat.complete({ role: 'answer', messages: [] });
    for await (const event of chat.stream({ role: 'answer', messages: [] })) expect(event.type).toBe('delta');
    expect(loads).toBe(1);
  });

  it('tries loading again after a failed load', async () => {
    let loads = 0;
    const chat = new LazyChat('openai', async () => {
      loads++;
      if (loads === 1) throw new Error('not yet');
      return answering;
    });
    await expect(chat.complete({ role: 'answer', messages: [] })).rejects.toThrow('not yet');
    expect((await chat.complete({ role: 'answer', messages: [] })).text).toBe('loaded');
  });
});

describe('LazyEmbedder', () => {
  it('knows model and dimensions before loading and passes the purpose on', async () => {
    const purposes: unknown[] = [];
    const inner: Embedder = {
      model: 'x',
      dimensions: 2,
      embed: async (texts, options) => {
        purposes.push(options?.purpose);
        return texts.map(() => [1, 0]);
      },
    };
    const embedder = new LazyEmbedder('x', 2, async () => inner);
    expect(embedder.dimensions).toBe(2);
    expect(await embedder.embed(['a'], { purpose: 'query' })).toEqual([[1, 0]]);
    expect(purposes).toEqual(['query']);
  });
});
