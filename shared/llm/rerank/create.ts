import type { Config } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';
import type { BedrockClientSettings } from '../bedrock/client.ts';
import type { BackoffOptions } from '../resilience/backoff.ts';
import { ResilientCaller } from '../resilience/caller.ts';
import type { UsageLedger } from '../usage.ts';
import type { Reranker } from './types.ts';

/** Rerank calls in flight at once (each carries up to `topN` passages). */
const MAX_CONCURRENCY = 4;

export interface RerankerOptions {
  awsCredentials?: BedrockClientSettings['credentials'];
  backoff?: BackoffOptions;
  ledger?: UsageLedger;
}

/**
 * The reranker `search.rerank` names, or undefined for `none`. Settings are checked at once
 * (ConfigError naming the setting); the SDK loads on the first call. A Bedrock model given as an id
 * becomes its foundation-model ARN in the region (`search.rerank.region`, else `providers.chat.region`,
 * else AWS_REGION).
 *
 * @example createReranker(loadConfig({ env: { DROPQA_SEARCH__RERANK__KIND: 'openai', ... } }))?.model
 */
export function createReranker(config: Config, options: RerankerOptions = {}): Reranker | undefined {
  const settings = config.search.rerank;
  if (settings.kind === 'none') return undefined;
  const { model } = settings;
  if (!model)
    throw new ConfigError(`search.rerank.model is required when search.rerank.kind is ${settings.kind}`);
  const caller = new ResilientCaller({
    provider: settings.kind,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    maxConcurrency: MAX_CONCURRENCY,
    backoff: options.backoff,
  });
  if (settings.kind === 'bedrock') {
    const region = settings.region ?? config.providers.chat.region ?? process.env.AWS_REGION;
    if (!model.startsWith('arn:') && !region) {
      throw new ConfigError(
        'search.rerank.region (or providers.chat.region, AWS_REGION) is needed to name a Bedrock rerank model by id',
      );
    }
    const modelArn = model.startsWith('arn:')
      ? model
      : `arn:aws:bedrock:${region}::foundation-model/${model}`;
    const load = async (): Promise<Reranker> => {
      const [{ BedrockAgentRuntimeClient }, { BedrockReranker }] = await Promise.all([
        import('@aws-sdk/client-bedrock-agent-runtime'),
        import('./bedrock.ts'),
      ]);
      const client = new BedrockAgentRuntimeClient({
        region: settings.region ?? region,
        endpoint: settings.baseUrl,
        credentials: options.awsCredentials,
        maxAttempts: 1,
      });
      return new BedrockReranker({ client, modelArn, caller, ledger: options.ledger });
    };
    return lazyReranker(modelArn, load);
  }
  if (!settings.baseUrl)
    throw new ConfigError('search.rerank.baseUrl is required when search.rerank.kind is openai');
  const load = async (): Promise<Reranker> => {
    const [{ createOpenAiClient }, { OpenAiReranker }] = await Promise.all([
      import('../openai/client.ts'),
      import('./openai.ts'),
    ]);
    const client = createOpenAiClient({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      timeoutMs: settings.timeoutMs,
    });
    return new OpenAiReranker({ client, model, caller, ledger: options.ledger });
  };
  return lazyReranker(model, load);
}

/** A reranker whose SDK and client are created on the first call. */
function lazyReranker(model: string, load: () => Promise<Reranker>): Reranker {
  let loaded: Promise<Reranker> | undefined;
  return {
    model,
    async rerank(query, passages) {
      loaded ??= load();
      return (await loaded).rerank(query, passages);
    },
  };
}
