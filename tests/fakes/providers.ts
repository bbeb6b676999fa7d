import { type ConfigInput, parseConfig } from '#shared/config/index.ts';
import { createProviders, type ProviderOptions } from '#shared/llm/providers.ts';
import type { Providers } from '#shared/llm/types.ts';
import { createBedrockFake } from './bedrock-fake.ts';
import type { FakeServer } from './http-fake.ts';
import { createOpenAiFake } from './openai-fake.ts';

export type FakeProviderKind = 'bedrock' | 'openai';

/** Static credentials for SDK clients pointed at a fake (SigV4 signs with them; nobody checks). */
export const FAKE_AWS_CREDENTIALS = { accessKeyId: 'AKIDFAKE', secretAccessKey: 'fake-secret' };

/** Model ids the fake configurations use. */
export const FAKE_MODELS = {
  bedrock: { chat: 'global.anthropic.claude-haiku-4-5-20251001-v1:0', embed: 'amazon.titan-embed-text-v2:0' },
  openai: { chat: 'llama3.1:8b', embed: 'nomic-embed-text' },
} as const;

/**
 * A configuration whose chat model and embedder are `kind`, served by the fake at `url`; `extra`
 * is merged into `providers` (roles, chat settings).
 */
export function fakeProvidersConfig(
  kind: FakeProviderKind,
  url: string,
  extra: ConfigInput['providers'] = {},
) {
  const baseUrl = kind === 'openai' ? `${url}/v1` : url;
  return parseConfig({
    providers: {
      ...extra,
      chat: { region: 'us-east-1', model: FAKE_MODELS[kind].chat, ...extra.chat, kind, baseUrl },
      embedder: {
        region: 'us-east-1',
        model: FAKE_MODELS[kind].embed,
        dimensions: kind === 'bedrock' ? 256 : 8,
        ...extra.embedder,
        kind,
        baseUrl,
      },
    },
  });
}

/**
 * The real providers (SDK clients and all) pointed at a fake server of their protocol, with short
 * retry waits. Start the fake first.
 *
 * @example
 * const fake = await startFake('bedrock');
 * const providers = fakeProviders('bedrock', fake);
 * await providers.chat?.complete({ role: 'answer', messages: [{ role: 'user', content: 'hi' }] });
 * fake.recorded('converse')[0].model; // 'global.anthropic.claude-haiku-4-5-20251001-v1:0'
 */
export function fakeProviders(
  kind: FakeProviderKind,
  fake: FakeServer,
  extra: ConfigInput['providers'] = {},
  options: ProviderOptions = {},
): Providers {
  return createProviders(fakeProvidersConfig(kind, fake.url, extra), {
    awsCredentials: FAKE_AWS_CREDENTIALS,
    backoff: { baseDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
}

/** A started fake server of the protocol. */
export async function startFake(
  kind: FakeProviderKind,
  options?: { rejectJsonSchema?: boolean },
): Promise<FakeServer> {
  const fake = kind === 'bedrock' ? createBedrockFake() : createOpenAiFake(options);
  await fake.start();
  return fake;
}
