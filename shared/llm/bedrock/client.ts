import { BedrockRuntimeClient, type BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';

export interface BedrockClientSettings {
  region?: string;
  /** Endpoint override (`baseUrl`): a VPC endpoint, or a local fake in tests. */
  baseUrl?: string;
  /** Credentials; default the SDK's chain (environment, profile, SSO, instance or task role). */
  credentials?: BedrockRuntimeClientConfig['credentials'];
}

/**
 * A Bedrock Runtime client with the SDK's own retries off (`maxAttempts: 1`): the provider's
 * ResilientCaller does the retrying, so a throttled call is not retried twice over.
 */
export function createBedrockClient(settings: BedrockClientSettings): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    region: settings.region,
    endpoint: settings.baseUrl,
    credentials: settings.credentials,
    maxAttempts: 1,
  });
}
