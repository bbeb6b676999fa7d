export { OpenAiChat, type OpenAiChatOptions } from './chat.ts';
export { createOpenAiClient, type OpenAiClientSettings } from './client.ts';
export { OpenAiEmbedder, type OpenAiEmbedderOptions } from './embedder.ts';
export { OPENAI_IMAGE_LIMITS } from './messages.ts';
