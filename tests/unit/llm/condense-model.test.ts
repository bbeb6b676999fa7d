import { describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import {
  bedrockModels,
  bedrockRoles,
  DEFAULT_BEDROCK_CONDENSE_MODEL,
} from '#shared/llm/provider-settings.ts';

describe('bedrockRoles', () => {
  it('puts the condense role on the small default model whatever model the chat uses', () => {
    const config = parseConfig({
      providers: { chat: { kind: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5' } },
    });
    expect(bedrockRoles(config).condense.model).toBe(DEFAULT_BEDROCK_CONDENSE_MODEL);
    expect(bedrockRoles(config).answer.model).toBeUndefined();
  });

  it('keeps a condense model the configuration names', () => {
    const config = parseConfig({
      providers: { chat: { kind: 'bedrock' }, roles: { condense: { model: 'amazon.nova-micro-v1:0' } } },
    });
    expect(bedrockRoles(config).condense).toMatchObject({ model: 'amazon.nova-micro-v1:0', temperature: 0 });
  });
});

describe('bedrockModels', () => {
  it('names every model a Bedrock configuration calls, each once: roles, default, condense, embedder, reranker', () => {
    const config = parseConfig({
      providers: {
        chat: { kind: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
        embedder: { kind: 'bedrock', dimensions: 1024 },
        roles: {
          judge: { model: 'amazon.nova-micro-v1:0' },
          sufficiency: { model: 'amazon.nova-micro-v1:0' },
        },
      },
      search: { rerank: { kind: 'bedrock', model: 'amazon.rerank-v1:0' } },
    });
    expect(bedrockModels(config).sort()).toEqual(
      [
        'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
        'amazon.nova-micro-v1:0',
        DEFAULT_BEDROCK_CONDENSE_MODEL,
        'amazon.titan-embed-text-v2:0',
        'amazon.rerank-v1:0',
      ].sort(),
    );
  });

  it('names none for offline and OpenAI-compatible providers', () => {
    expect(bedrockModels(parseConfig({}))).toEqual([]);
    expect(
      bedrockModels(
        parseConfig({
          providers: { chat: { kind: 'openai', model: 'qwen2.5:7b', baseUrl: 'http://127.0.0.1:1/v1' } },
        }),
      ),
    ).toEqual([]);
  });
});
