import type { Config } from '../config/index.ts';
import type { BedrockClientSettings } from './bedrock/client.ts';
import { BatchingEmbedder } from './embedding/batching-embedder.ts';
import { LazyChat, LazyEmbedder } from './lazy.ts';
import { createOcrEngine } from './ocr/create.ts';
import { HashingEmbedder } from './offline/hashing-embedder.ts';
import { OFFLINE_CHAT_LABEL, OFFLINE_EMBEDDER_LABEL, OFFLINE_LABEL } from './offline-labels.ts';
import { defaultChatModel, embedderSettings } from './provider-settings.ts';
import { createReranker } from './rerank/create.ts';
import type { BackoffOptions } from './resilience/backoff.ts';
import { ResilientCaller } from './resilience/caller.ts';
import type { ChatModel, Embedder, Providers } from './types.ts';
import { UsageLedger } from './usage.ts';

export interface ProviderOptions {
  /** AWS credentials instead of the SDK's default chain (tests pass static fake ones). */
  awsCredentials?: BedrockClientSettings['credentials'];
  /** Retry waits (tests shorten them). */
  backoff?: BackoffOptions;
  /** How long pending texts wait to be batched together. Default: the current tick. */
  embedBatchWaitMs?: number;
  ledger?: UsageLedger;
}

/**
 * The providers the configuration names: Bedrock or an OpenAI-compatible endpoint for chat and
 * embeddings, each through its own resilient caller (timeout, retries, concurrency limit) and one
 * usage ledger; offline (no chat model, hashing embeddings) for whatever is not configured. Settings
 * are checked at once (ConfigError naming the setting); the SDKs load on the first call.
 *
 * @example
 * const providers = createProviders(loadConfig());
 * providers.label; // "bedrock: global.anthropic.claude-haiku-4-5-20251001-v1:0 / titan v2 (1024)"
 * providers.usage?.snapshot(); // { summarize: { calls: 12, inputTokens: 9800, outputTokens: 1400 } }
 */
export function createProviders(config: Config, options: ProviderOptions = {}): Providers {
  const ledger = options.ledger ?? new UsageLedger();
  const { chat: chatConfig, embedder: embedConfig } = config.providers;
  if (chatConfig.kind === 'offline' && embedConfig.kind === 'offline') {
    return {
      embedder: new HashingEmbedder({ dimensions: embedConfig.dimensions }),
      ocr: createOcrEngine(config),
      reranker: createReranker(config, { ...options, ledger }),
      label: OFFLINE_LABEL,
      usage: ledger,
    };
  }
  const chat = createChat(config, options, ledger);
  const inner = createEmbedder(config, options, ledger);
  const embedder =
    embedConfig.kind === 'offline'
      ? inner
      : new BatchingEmbedder(inner, {
          batchSize: embedConfig.batchSize,
          maxWaitMs: options.embedBatchWaitMs,
        });
  return {
    chat,
    embedder,
    ocr: createOcrEngine(config),
    reranker: createReranker(config, { ...options, ledger }),
    label: providersLabel(config),
    usage: ledger,
  };
}

function createChat(config: Config, options: ProviderOptions, ledger: UsageLedger): ChatModel | undefined {
  const settings = config.providers.chat;
  if (settings.kind === 'offline') return undefined;
  defaultChatModel(config);
  const caller = new ResilientCaller({
    provider: settings.kind,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    maxConcurrency: settings.maxConcurrency,
    backoff: options.backoff,
  });
  if (settings.kind === 'bedrock') {
    return new LazyChat('bedrock', async () => {
      const { bedrockChatFromConfig } = await import('./bedrock/from-config.ts');
      return bedrockChatFromConfig(config, { caller, ledger, credentials: options.awsCredentials });
    });
  }
  return new LazyChat('openai', async () => {
    const { openAiChatFromConfig } = await import('./openai/from-config.ts');
    return openAiChatFromConfig(config, { caller, ledger });
  });
}

function createEmbedder(config: Config, options: ProviderOptions, ledger: UsageLedger): Embedder {
  const { embedder: settings, chat } = config.providers;
  const { model, dimensions } = embedderSettings(config);
  if (settings.kind === 'offline') return new HashingEmbedder({ dimensions });
  // The embedder has its own caller: a burst of embedding calls must not starve the chat model.
  const caller = new ResilientCaller({
    provider: settings.kind,
    timeoutMs: chat.timeoutMs,
    maxRetries: chat.maxRetries,
    maxConcurrency: settings.maxConcurrency,
    backoff: options.backoff,
  });
  if (settings.kind === 'bedrock') {
    return new LazyEmbedder(model, dimensions, async () => {
      const { bedrockEmbedderFromConfig } = await import('./bedrock/from-config.ts');
      return bedrockEmbedderFromConfig(config, { caller, ledger, credentials: options.awsCredentials });
    });
  }
  return new LazyEmbedder(model, dimensions, async () => {
    const { openAiEmbedderFromConfig } = await import('./openai/from-config.ts');
    return openAiEmbedderFromConfig(config, { caller, ledger });
  });
}

/**
 * "bedrock: anthropic.claude-... / titan v2 (1024)": the chat model (the answer role's) and the
 * embedder in force, offline parts named as offline.
 */
export function providersLabel(config: Config): string {
  const { chat, embedder, roles } = config.providers;
  const chatPart =
    chat.kind === 'offline'
      ? OFFLINE_CHAT_LABEL
      : `${chat.kind}: ${roles.answer.model ?? defaultChatModel(config)}`;
  const { family, model, dimensions } = embedderSettings(config);
  const name = {
    titan: 'titan v2',
    cohere: 'cohere multilingual v3',
    offline: OFFLINE_EMBEDDER_LABEL,
    openai: model,
  }[family];
  const kind = chat.kind !== embedder.kind ? `${embedder.kind} ` : '';
  return `${chatPart} / ${kind}${name} (${dimensions})`;
}
