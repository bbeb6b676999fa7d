import type { Config } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';
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
  if (!chat.model && Object.values(roles).some((role) => !role.model)) {
    throw new ConfigError('providers.chat.model is required when providers.chat.kind is openai');
  }
  return new OpenAiChat({
    client: createOpenAiClient({ baseUrl: chat.baseUrl, apiKey: chat.apiKey, timeoutMs: chat.timeoutMs }),
    defaultModel: chat.model,
    roles,
    caller: deps.caller,
    ledger: deps.ledger,
  });
}

/** An OpenAI-compatible `/v1/embeddings` embedder from `providers.embedder`. */
export function openAiEmbedderFromConfig(config: Config, deps: OpenAiDeps): OpenAiEmbedder {
  const { embedder, chat } = config.providers;
  if (!embedder.model) {
    throw new ConfigError('providers.embedder.model is required when providers.embedder.kind is openai');
  }
  return new OpenAiEmbedder({
    client: createOpenAiClient({
      baseUrl: embedder.baseUrl ?? chat.baseUrl,
      apiKey: embedder.apiKey ?? chat.apiKey,
      timeoutMs: chat.timeoutMs,
    }),
    model: embedder.model,
    dimensions: embedder.dimensions,
    batchSize: embedder.batchSize,
    caller: deps.caller,
    ledger: deps.ledger,
  });
}
