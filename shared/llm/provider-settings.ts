import type { Config, Role } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';
import { roleSettings } from './chat/role-settings.ts';
import { HASHING_EMBEDDER_MODEL } from './offline/hashing-embedder.ts';

/**
 * The chat model of roles without their own when `providers.chat.model` is not set (Bedrock): Claude
 * Haiku 4.5 through the global cross-region inference profile, callable from any commercial Bedrock
 * region (current Claude models are called only through inference profiles). The CDK app's default too.
 */
export const DEFAULT_BEDROCK_CHAT_MODEL = 'global.anthropic.claude-haiku-4-5-20251001-v1:0';
/**
 * The `condense` role's model on Bedrock when `providers.roles.condense.model` is not set: a follow-up
 * is rewritten by the small model whatever larger model answers (one short call per follow-up).
 */
export const DEFAULT_BEDROCK_CONDENSE_MODEL = DEFAULT_BEDROCK_CHAT_MODEL;
export const TITAN_V2_MODEL = 'amazon.titan-embed-text-v2:0';
export const TITAN_V2_DIMENSIONS = [256, 512, 1024] as const;
export const COHERE_MULTILINGUAL_MODEL = 'cohere.embed-multilingual-v3';
export const COHERE_DIMENSIONS = 1024;

export type EmbedderFamily = 'offline' | 'titan' | 'cohere' | 'openai';

export interface EmbedderSettings {
  family: EmbedderFamily;
  model: string;
  dimensions: number;
}

/**
 * The embedder `providers.embedder` names, checked without loading any SDK: the model (defaults
 * filled in) and dimensions the model can produce. Throws ConfigError naming the setting.
 */
export function embedderSettings(config: Config): EmbedderSettings {
  const { kind, model, dimensions } = config.providers.embedder;
  if (kind === 'offline') return { family: 'offline', model: HASHING_EMBEDDER_MODEL, dimensions };
  if (kind === 'openai') {
    if (!model)
      throw new ConfigError('providers.embedder.model is required when providers.embedder.kind is openai');
    return { family: 'openai', model, dimensions };
  }
  const id = model ?? TITAN_V2_MODEL;
  if (id.startsWith('amazon.titan-embed-text-v2')) {
    checkTitanDimensions(dimensions);
    return { family: 'titan', model: id, dimensions };
  }
  if (id.startsWith('cohere.embed-')) {
    checkCohereDimensions(dimensions);
    return { family: 'cohere', model: id, dimensions };
  }
  throw new ConfigError(
    `providers.embedder.model '${id}' is not supported on Bedrock; use ${TITAN_V2_MODEL} or ${COHERE_MULTILINGUAL_MODEL}`,
  );
}

/**
 * The chat model of roles without their own (`providers.chat.model`, Bedrock's default), or
 * undefined offline. Throws ConfigError when an OpenAI-compatible chat leaves a role without a model.
 */
export function defaultChatModel(config: Config): string | undefined {
  const { chat, roles } = config.providers;
  if (chat.kind === 'offline') return undefined;
  if (chat.kind === 'bedrock') return chat.model ?? DEFAULT_BEDROCK_CHAT_MODEL;
  if (!chat.model && Object.values(roles).some((role) => !role.model)) {
    throw new ConfigError('providers.chat.model is required when providers.chat.kind is openai');
  }
  return chat.model;
}

/**
 * The role settings a Bedrock chat model runs with: `providers.roles`, with the `condense` role on
 * the small default model unless it names its own. (An OpenAI-compatible server has no model we
 * could assume is small: there `condense` falls back to `providers.chat.model` like every role.)
 */
export function bedrockRoles(config: Config): Config['providers']['roles'] {
  const { roles } = config.providers;
  return {
    ...roles,
    condense: { ...roles.condense, model: roles.condense.model ?? DEFAULT_BEDROCK_CONDENSE_MODEL },
  };
}

/**
 * Every Bedrock model the configuration calls, each once: each role's chat model (as `bedrockRoles`
 * and `providers.chat.model` resolve it), the embedder and the reranker, as ids (a model id, an
 * inference profile id) or ARNs as configured. What an IAM policy must let the process invoke.
 *
 * @example bedrockModels(config) // ['global.anthropic.claude-haiku-4-5-20251001-v1:0', 'amazon.titan-embed-text-v2:0']
 */
export function bedrockModels(config: Config): string[] {
  const { chat, embedder } = config.providers;
  const models: string[] = [];
  if (chat.kind === 'bedrock') {
    const roles = bedrockRoles(config);
    const fallback = defaultChatModel(config);
    for (const role of Object.keys(roles) as Role[]) models.push(roleSettings(roles, fallback, role).model);
  }
  if (embedder.kind === 'bedrock') models.push(embedderSettings(config).model);
  const { rerank } = config.search;
  if (rerank.kind === 'bedrock' && rerank.model) models.push(rerank.model);
  return [...new Set(models)];
}

export function checkTitanDimensions(dimensions: number): void {
  if (!(TITAN_V2_DIMENSIONS as readonly number[]).includes(dimensions)) {
    throw new ConfigError(
      `providers.embedder.dimensions must be 256, 512 or 1024 for Titan Text Embeddings v2 (got ${dimensions})`,
    );
  }
}

export function checkCohereDimensions(dimensions: number): void {
  if (dimensions !== COHERE_DIMENSIONS) {
    throw new ConfigError(
      `providers.embedder.dimensions must be 1024 for Cohere Embed v3 (got ${dimensions})`,
    );
  }
}
