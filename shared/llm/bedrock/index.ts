export { BedrockChat, type BedrockChatOptions } from './chat.ts';
export { type BedrockClientSettings, createBedrockClient } from './client.ts';
export {
  COHERE_MAX_BATCH,
  COHERE_MULTILINGUAL_MODEL,
  CohereEmbedder,
  type CohereEmbedderOptions,
} from './cohere-embedder.ts';
export {
  TITAN_V2_DIMENSIONS,
  TITAN_V2_MODEL,
  TitanEmbedder,
  type TitanEmbedderOptions,
} from './titan-embedder.ts';
