import {
  BedrockRuntimeClient,
  type BedrockRuntimeClientConfig,
  InvokeModelCommand,
} from '@aws-sdk/client-bedrock-runtime';
import type { CallContext, ResilientCaller } from '../resilience/caller.ts';

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

/**
 * One InvokeModel call through the resilient caller: `body` sent as JSON to `context.model`, the
 * answer's JSON parsed (its shape is the model's to check).
 *
 * @example const parsed = await invokeJson(client, caller, { model, role: 'embed' }, { inputText });
 */
export async function invokeJson(
  client: BedrockRuntimeClient,
  caller: ResilientCaller,
  context: CallContext,
  body: unknown,
): Promise<unknown> {
  const output = await caller.call(context, (signal) =>
    client.send(
      new InvokeModelCommand({
        modelId: context.model,
        contentType: 'application/json',
        accept: 'application/json',
        body: JSON.stringify(body),
      }),
      { abortSignal: signal },
    ),
  );
  return JSON.parse(output.body.transformToString());
}
