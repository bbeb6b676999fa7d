import { describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import { bedrockRoles, DEFAULT_BEDROCK_CONDENSE_MODEL } from '#shared/llm/provider-settings.ts';

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
