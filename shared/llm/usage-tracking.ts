import type { ChatModel, Embedder, Providers, TokenUsage } from './types.ts';

export interface ExecutionUsage {
  chatCalls: number;
  inputTokens: number;
  outputTokens: number;
  embedCalls: number;
}

/**
 * The providers as one execution sees them: the same models, with every call and its tokens also
 * counted for this execution alone (the providers' own ledger is shared by concurrent executions),
 * so a version's stats can say what its ingestion cost and a request's log line what it cost.
 *
 * @example const tracked = trackUsage(providers); await step(input, { ...deps, providers: tracked.providers }); tracked.usage
 */
export function trackUsage(providers: Providers): { providers: Providers; usage: ExecutionUsage } {
  const usage: ExecutionUsage = { chatCalls: 0, inputTokens: 0, outputTokens: 0, embedCalls: 0 };
  const add = (tokens: TokenUsage) => {
    usage.chatCalls += 1;
    usage.inputTokens += tokens.inputTokens;
    usage.outputTokens += tokens.outputTokens;
  };
  const chat = providers.chat;
  const trackedChat: ChatModel | undefined = chat && {
    provider: chat.provider,
    async complete(request) {
      const result = await chat.complete(request);
      add(result.usage);
      return result;
    },
    async *stream(request) {
      for await (const event of chat.stream(request)) {
        if (event.type === 'usage') add(event.usage);
        yield event;
      }
    },
    async structured(request, schema) {
      const result = await chat.structured(request, schema);
      add(result.usage);
      return result;
    },
  };
  const embedder = providers.embedder;
  const trackedEmbedder: Embedder = {
    model: embedder.model,
    dimensions: embedder.dimensions,
    embed(texts, options) {
      usage.embedCalls += 1;
      return embedder.embed(texts, options);
    },
  };
  return { providers: { ...providers, chat: trackedChat, embedder: trackedEmbedder }, usage };
}
