import type { Config } from '#shared/config/index.ts';
import { bedrockRoles, defaultChatModel, embedderSettings } from '../provider-settings.ts';
import type { ResilientCaller } from '../resilience/caller.ts';
import type { Embedder } from '../types.ts';
import type { UsageLedger } from '../usage.ts';
import { BedrockChat } from './chat.ts';
import { type BedrockClientSettings, createBedrockClient } from './client.ts';
import { CohereEmbedder } from './cohere-embedder.ts';
import { TitanEmbedder } from './titan-embedder.ts';

export interface BedrockDeps {
  caller: ResilientCaller;
  ledger: UsageLedger;
  credentials?: BedrockClientSettings['credentials'];
}

/** A Bedrock chat model from `providers.chat` and `providers.roles`. */
export function bedrockChatFromConfig(config: Config, deps: BedrockDeps): BedrockChat {
  const { chat } = config.providers;
  return new BedrockChat({
    client: createBedrockClient({
      region: chat.region,
      baseUrl: chat.baseUrl,
      credentials: deps.credentials,
    }),
    defaultModel: defaultChatModel(config),
    roles: bedrockRoles(config),
    caller: deps.caller,
    ledger: deps.ledger,
  });
}

/** Titan Text Embeddings v2 (the default) or Cohere multilingual, by `providers.embedder.model`. */
export function bedrockEmbedderFromConfig(config: Config, deps: BedrockDeps): Embedder {
  const { embedder, chat } = config.providers;
  const client = createBedrockClient({
    region: embedder.region ?? chat.region,
    baseUrl: embedder.baseUrl,
    credentials: deps.credentials,
  });
  const { family, model, dimensions } = embedderSettings(config);
  const common = { client, model, dimensions, caller: deps.caller, ledger: deps.ledger };
  return family === 'cohere'
    ? new CohereEmbedder({ ...common, batchSize: embedder.batchSize })
    : new TitanEmbedder(common);
}
