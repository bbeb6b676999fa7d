import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '#shared/errors.ts';
import { isBlank, unitLength } from '../embedding/vectors.ts';
import { checkTitanDimensions, TITAN_V2_MODEL } from '../provider-settings.ts';
import type { ResilientCaller } from '../resilience/caller.ts';
import type { Embedder } from '../types.ts';
import type { UsageLedger } from '../usage.ts';
import { invokeJson } from './client.ts';

/**
 * Titan v2 takes 8,192 tokens (and 50,000 characters) per text; Chinese runs near a token per
 * character, so texts are cut at 8,000 characters to stay under the token limit in any language.
 */
const MAX_CHARS = 8_000;

export interface TitanEmbedderOptions {
  client: BedrockRuntimeClient;
  model?: string;
  dimensions: number;
  caller: ResilientCaller;
  ledger?: UsageLedger;
}

/**
 * Titan Text Embeddings v2 through InvokeModel: one text per call (the API has no batch form), the
 * calls of one `embed` run concurrently within the caller's limit; vectors normalized by the model.
 */
export class TitanEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;

  constructor(private readonly options: TitanEmbedderOptions) {
    checkTitanDimensions(options.dimensions);
    this.model = options.model ?? TITAN_V2_MODEL;
    this.dimensions = options.dimensions;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return Promise.all(texts.map((text) => this.embedOne(text)));
  }

  private async embedOne(text: string): Promise<number[]> {
    if (isBlank(text)) return new Array<number>(this.dimensions).fill(0);
    const { client, caller, ledger } = this.options;
    const parsed = (await invokeJson(
      client,
      caller,
      { model: this.model, role: 'embed' },
      { inputText: text.slice(0, MAX_CHARS), dimensions: this.dimensions, normalize: true },
    )) as { embedding?: unknown; inputTextTokenCount?: number };
    const vector = parsed.embedding;
    if (!Array.isArray(vector) || vector.length !== this.dimensions) {
      throw new ProviderError(
        `bedrock model ${this.model} (role embed) returned ${Array.isArray(vector) ? `${vector.length} dimensions` : 'no embedding'}, expected ${this.dimensions}`,
      );
    }
    ledger?.record('embed', { inputTokens: parsed.inputTextTokenCount ?? 0, outputTokens: 0 });
    return unitLength(vector as number[]);
  }
}
