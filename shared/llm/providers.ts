import type { Config } from '../config/index.ts';
import { ConfigError } from '../errors.ts';
import { HashingEmbedder } from './offline/hashing-embedder.ts';
import type { Providers } from './types.ts';

/**
 * The providers the configuration names. Only the offline providers exist so far: extractive
 * answers and summaries, feature-hashing embeddings; a configured Bedrock or OpenAI-compatible
 * provider is refused with a clear message until those providers land.
 */
export function createProviders(config: Config): Providers {
  const { chat, embedder } = config.providers;
  for (const [role, kind] of [
    ['providers.chat.kind', chat.kind],
    ['providers.embedder.kind', embedder.kind],
  ] as const) {
    if (kind !== 'offline') {
      throw new ConfigError(`${role} '${kind}' is not available in this version of DropQA; use 'offline'`);
    }
  }
  return {
    embedder: new HashingEmbedder({ dimensions: embedder.dimensions }),
    label: 'offline (extractive answers and summaries, hashing embeddings; no language model)',
  };
}
