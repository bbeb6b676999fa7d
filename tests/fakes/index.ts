export { createBedrockFake } from './bedrock-fake.ts';
export { FakeServer } from './http-fake.ts';
export { createOpenAiFake } from './openai-fake.ts';
export {
  FAKE_AWS_CREDENTIALS,
  FAKE_MODELS,
  type FakeProviderKind,
  fakeProviders,
  fakeProvidersConfig,
  startFake,
} from './providers.ts';
export { type FakeReply, type FakeUsage, fakeVector, type RecordedRequest } from './script.ts';
