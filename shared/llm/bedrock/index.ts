export {
  COHERE_DIMENSIONS,
  COHERE_MULTILINGUAL_MODEL,
  DEFAULT_BEDROCK_CHAT_MODEL,
  TITAN_V2_DIMENSIONS,
  TITAN_V2_MODEL,
} from '../provider-settings.ts';
export { BedrockChat, type BedrockChatOptions } from './chat.ts';
export { type BedrockClientSettings, createBedrockClient } from './client.ts';
export { COHERE_MAX_BATCH, CohereEmbedder, type CohereEmbedderOptions } from './cohere-embedder.ts';
export { type BedrockDeps, bedrockChatFromConfig, bedrockEmbedderFromConfig } from './from-config.ts';
export { TitanEmbedder, type TitanEmbedderOptions } from './titan-embedder.ts';
