import { describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import { createProviders } from '#shared/llm/providers.ts';

describe('createProviders', () => {
  it('is offline when nothing is configured', () => {
    const providers = createProviders(parseConfig({}));
    expect(providers.chat).toBeUndefined();
    expect(providers.embedder).toBeInstanceOf(HashingEmbedder);
    expect(providers.label).toMatch(/^offline/);
  });

  it('names the Bedrock chat model and embedder in its label', () => {
    const providers = createProviders(
      parseConfig({
        providers: {
          chat: { kind: 'bedrock', region: 'us-west-2' },
          embedder: { kind: 'bedrock', region: 'us-west-2', dimensions: 1024 },
        },
      }),
    );
    expect(providers.chat?.provider).toBe('bedrock');
    expect(providers.embedder.model).toBe('amazon.titan-embed-text-v2:0');
    expect(providers.label).toBe(
      'bedrock: global.anthropic.claude-haiku-4-5-20251001-v1:0 / titan v2 (1024)',
    );
    expect(providers.usage?.snapshot()).toEqual({});
  });

  it('labels an offline chat with a model embedder as offline', () => {
    const providers = createProviders(
      parseConfig({
        providers: {
          embedder: {
            kind: 'openai',
            model: 'nomic-embed-text',
            dimensions: 768,
            baseUrl: 'http://127.0.0.1:1/v1',
          },
        },
      }),
    );
    expect(providers.chat).toBeUndefined();
    expect(providers.label).toBe(
      'offline (extractive answers and summaries; no language model) / openai nomic-embed-text (768)',
    );
  });

  it('asks for a model when an OpenAI-compatible chat has none', () => {
    expect(() => createProviders(parseConfig({ providers: { chat: { kind: 'openai' } } }))).toThrow(
      /providers\.chat\.model is required/,
    );
  });

  it('refuses a Bedrock embedding model it does not know', () => {
    expect(() =>
      createProviders(
        parseConfig({ providers: { embedder: { kind: 'bedrock', model: 'amazon.titan-embed-g1' } } }),
      ),
    ).toThrow(ConfigError);
  });
});
