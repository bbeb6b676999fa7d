import type { Config } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';
import type { ResilientCaller } from '../resilience/caller.ts';
import type { Embedder } from '../types.ts';
import type { UsageLedger } from '../usage.ts';
import { BedrockChat } from './chat.ts';
import { type BedrockClientSettings, createBedrockClient } from './client.ts';
import { COHERE_MULTILINGUAL_MODEL, CohereEmbedder } from './cohere-embedder.ts';
import { TITAN_V2_MODEL, TitanEmbedder } from './titan-embedder.ts';

/** The chat model of roles without their own when `providers.chat.model` is not set. */
export const DEFAULT_BEDROCK_CHAT_MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';

export interface BedrockDeps {
  caller: ResilientCaller;
  ledger: UsageLedger;
  credentials?: BedrockClientSettings['credentials'];
}

/** A Bedrock chat model from `providers.chat` and `providers.roles`. */
export function bedrockChatFromConfig(config: Config, deps: BedrockDeps): BedrockChat {
  const { chat, roles } = config.providers;
  return new BedrockChat({
    client: createBedrockClient({
      region: chat.region,
      baseUrl: chat.baseUrl,
      credentials: deps.credentials,
    }),
    defaultModel: chat.model ?? DEFAULT_BEDROCK_CHAT_MODEL,
    roles,
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
  const model = embedder.model ?? TITAN_V2_MODEL;
  const common = { client, model, dimensions: embedder.dimensions, caller: deps.caller, ledger: deps.ledger };
  if (model.startsWith('amazon.titan-embed-text-v2')) return new TitanEmbedder(common);
  if (model.startsWith('cohere.embed-'))
    return new CohereEmbedder({ ...common, batchSize: embedder.batchSize });
  throw new ConfigError(
    `providers.embedder.model '${model}' is not supported on Bedrock; use ${TITAN_V2_MODEL} or ${COHERE_MULTILINGUAL_MODEL}`,
  );
}
