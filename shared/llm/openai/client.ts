import OpenAI from 'openai';

export interface OpenAiClientSettings {
  /** The `/v1` base URL, e.g. http://localhost:11434/v1 for Ollama. */
  baseUrl?: string;
  apiKey?: string;
  timeoutMs: number;
}

/**
 * An OpenAI SDK client with its own retries off (`maxRetries: 0`): the provider's ResilientCaller
 * does the retrying. Local servers (Ollama, vLLM) take any key, so a placeholder is sent without one.
 */
export function createOpenAiClient(settings: OpenAiClientSettings): OpenAI {
  return new OpenAI({
    baseURL: settings.baseUrl,
    apiKey: settings.apiKey || 'not-needed',
    maxRetries: 0,
    timeout: settings.timeoutMs,
  });
}
