import { describe, expect, it } from 'vitest';
import type { ChatModel, Providers } from '#shared/llm/types.ts';
import { trackUsage } from '#shared/llm/usage-tracking.ts';

const usage = { inputTokens: 10, outputTokens: 4 };
const chat: ChatModel = {
  provider: 'openai',
  complete: async () => ({ text: 'ok', model: 'm', usage }),
  async *stream() {
    yield { type: 'delta', text: 'o' };
    yield { type: 'usage', usage, model: 'm' };
  },
  structured: async <T>() => ({ value: {} as T, usage, model: 'm' }),
};
const providers: Providers = {
  chat,
  embedder: { model: 'e', dimensions: 2, embed: async (texts) => texts.map(() => [1, 0]) },
  label: 'test',
};

describe('trackUsage', () => {
  it('counts the calls and tokens of one execution while passing results through', async () => {
    const tracked = trackUsage(providers);
    const request = { role: 'summarize' as const, messages: [] };
    expect((await tracked.providers.chat?.complete(request))?.text).toBe('ok');
    for await (const _ of tracked.providers.chat?.stream(request) ?? []) {
      // drained
    }
    await tracked.providers.chat?.structured(request, {} as never);
    expect(await tracked.providers.embedder.embed(['a', 'b'])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    expect(tracked.usage).toEqual({ chatCalls: 3, inputTokens: 30, outputTokens: 12, embedCalls: 1 });
    expect(trackUsage(providers).usage.chatCalls).toBe(0);
  });
});
