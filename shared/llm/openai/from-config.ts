import type { Config } from '#shared/config/index.ts';
import { defaultChatModel, embedderSettings } from '../provider-settings.ts';
import type { ResilientCaller } from '../resilience/caller.ts';
import type { UsageLedger } from '../usage.ts';
import { OpenAiChat } from './chat.ts';
import { createOpenAiClient } from './client.ts';
import { OpenAiEmbedder } from './embedder.ts';

export interface OpenAiDeps {
  caller: ResilientCaller;
  ledger: UsageLedger;
}

/** An OpenAI-compatible chat model from `providers.chat` and `providers.roles`. */
export function openAiChatFromConfig(config: Config, deps: OpenAiDeps): OpenAiChat {
  const { chat, roles } = config.providers;
  return new OpenAiChat({
    client: createOpenAiClient({ baseUrl: chat.baseUrl, apiKey: chat.apiKey, timeoutMs: chat.timeoutMs }),
    defaultModel: defaultChatModel(config),
    roles,
    caller: deps.caller,
    ledger: deps.ledger,
  });
}

/** An OpenAI-compatible `/v1/embeddings` embedder from `providers.embedder`. */
export function openAiEmbedderFromConfig(config: Config, deps: OpenAiDeps): OpenAiEmbedder {
  const { embedder, chat } = config.providers;
  const { model, dimensions } = embedderSettings(config);
  return new OpenAiEmbedder({
    client: createOpenAiClient({
      baseUrl: embedder.baseUrl ?? chat.baseUrl,
      apiKey: embedder.apiKey ?? chat.apiKey,
      timeoutMs: chat.timeoutMs,
    }),
    model,
    dimensions,
    batchSize: embedder.batchSize,
    caller: deps.caller,
    ledger: deps.ledger,
  });
}
