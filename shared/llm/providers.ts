import type { Config } from '../config/index.ts';
import type { BedrockClientSettings } from './bedrock/client.ts';
import {
  bedrockChatFromConfig,
  bedrockEmbedderFromConfig,
  DEFAULT_BEDROCK_CHAT_MODEL,
} from './bedrock/from-config.ts';
import { TITAN_V2_MODEL } from './bedrock/titan-embedder.ts';
import { BatchingEmbedder } from './embedding/batching-embedder.ts';
import { HashingEmbedder } from './offline/hashing-embedder.ts';
import { openAiChatFromConfig, openAiEmbedderFromConfig } from './openai/from-config.ts';
import type { BackoffOptions } from './resilience/backoff.ts';
import { ResilientCaller } from './resilience/caller.ts';
import type { ChatModel, Embedder, Providers } from './types.ts';
import { UsageLedger } from './usage.ts';

const OFFLINE_LABEL = 'offline (extractive answers and summaries, hashing embeddings; no language model)';

export interface ProviderOptions {
  /** AWS credentials instead of the SDK's default chain (tests pass static fake ones). */
  awsCredentials?: BedrockClientSettings['credentials'];
  /** Retry waits (tests shorten them). */
  backoff?: BackoffOptions;
  /** Embedding calls in flight at once (Titan embeds one text per call). Default 8. */
  embedderConcurrency?: number;
  /** How long pending texts wait to be batched together. Default: the current tick. */
  embedBatchWaitMs?: number;
  ledger?: UsageLedger;
}

/**
 * The providers the configuration names: Bedrock or an OpenAI-compatible endpoint for chat and
 * embeddings, each through its own resilient caller (timeout, retries, concurrency limit) and one
 * usage ledger; offline (no chat model, hashing embeddings) for whatever is not configured.
 *
 * @example
 * const providers = createProviders(loadConfig());
 * providers.label; // "bedrock: anthropic.claude-3-haiku-20240307-v1:0 / titan v2 (1024)"
 * providers.usage?.snapshot(); // { summarize: { calls: 12, inputTokens: 9800, outputTokens: 1400 } }
 */
export function createProviders(config: Config, options: ProviderOptions = {}): Providers {
  const { chat: chatConfig, embedder: embedConfig } = config.providers;
  const ledger = options.ledger ?? new UsageLedger();
  if (chatConfig.kind === 'offline' && embedConfig.kind === 'offline') {
    return {
      embedder: new HashingEmbedder({ dimensions: embedConfig.dimensions }),
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
  return { chat, embedder, label: providersLabel(config), usage: ledger };
}

function createChat(config: Config, options: ProviderOptions, ledger: UsageLedger): ChatModel | undefined {
  const settings = config.providers.chat;
  if (settings.kind === 'offline') return undefined;
  const caller = new ResilientCaller({
    provider: settings.kind,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    maxConcurrency: settings.maxConcurrency,
    backoff: options.backoff,
  });
  return settings.kind === 'bedrock'
    ? bedrockChatFromConfig(config, { caller, ledger, credentials: options.awsCredentials })
    : openAiChatFromConfig(config, { caller, ledger });
}

function createEmbedder(config: Config, options: ProviderOptions, ledger: UsageLedger): Embedder {
  const { embedder: settings, chat } = config.providers;
  if (settings.kind === 'offline') return new HashingEmbedder({ dimensions: settings.dimensions });
  // The embedder has its own caller: a burst of embedding calls must not starve the chat model.
  const caller = new ResilientCaller({
    provider: settings.kind,
    timeoutMs: chat.timeoutMs,
    maxRetries: chat.maxRetries,
    maxConcurrency: options.embedderConcurrency ?? 8,
    backoff: options.backoff,
  });
  return settings.kind === 'bedrock'
    ? bedrockEmbedderFromConfig(config, { caller, ledger, credentials: options.awsCredentials })
    : openAiEmbedderFromConfig(config, { caller, ledger });
}

/**
 * "bedrock: anthropic.claude-... / titan v2 (1024)": the chat model (the answer role's) and the
 * embedder in force, offline parts named as offline.
 */
export function providersLabel(config: Config): string {
  const { chat, embedder, roles } = config.providers;
  const model =
    roles.answer.model ?? chat.model ?? (chat.kind === 'bedrock' ? DEFAULT_BEDROCK_CHAT_MODEL : '');
  const chatPart =
    chat.kind === 'offline'
      ? 'offline (extractive answers and summaries; no language model)'
      : `${chat.kind}: ${model}`;
  return `${chatPart} / ${embedderLabel(config, chat.kind !== embedder.kind)}`;
}

function embedderLabel(config: Config, namesKind: boolean): string {
  const { kind, dimensions } = config.providers.embedder;
  const model = config.providers.embedder.model ?? (kind === 'bedrock' ? TITAN_V2_MODEL : '');
  const name = model.startsWith('amazon.titan-embed-text-v2')
    ? 'titan v2'
    : model.startsWith('cohere.embed-multilingual')
      ? 'cohere multilingual v3'
      : kind === 'offline'
        ? 'hashing embeddings'
        : model;
  return `${namesKind ? `${kind} ` : ''}${name} (${dimensions})`;
}
