import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '#shared/errors.ts';
import { chunks, isBlank, unitLength } from '../embedding/vectors.ts';
import { COHERE_DIMENSIONS, COHERE_MULTILINGUAL_MODEL, checkCohereDimensions } from '../provider-settings.ts';
import type { ResilientCaller } from '../resilience/caller.ts';
import type { Embedder, EmbedOptions } from '../types.ts';
import type { UsageLedger } from '../usage.ts';
import { invokeJson } from './client.ts';

/** Bedrock's Cohere Embed v3 takes at most 96 texts per call, each of at most 2,048 characters. */
export const COHERE_MAX_BATCH = 96;
const MAX_CHARS = 2048;

export interface CohereEmbedderOptions {
  client: BedrockRuntimeClient;
  model?: string;
  dimensions: number;
  /** Texts per call, at most 96. */
  batchSize?: number;
  caller: ResilientCaller;
  ledger?: UsageLedger;
}

/**
 * Cohere Embed Multilingual v3 through InvokeModel, in batches of up to 96 texts; documents are
 * embedded as `search_document`, queries as `search_query` (the model is asymmetric).
 */
export class CohereEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions = COHERE_DIMENSIONS;
  private readonly batchSize: number;

  constructor(private readonly options: CohereEmbedderOptions) {
    checkCohereDimensions(options.dimensions);
    this.model = options.model ?? COHERE_MULTILINGUAL_MODEL;
    this.batchSize = Math.min(options.batchSize ?? COHERE_MAX_BATCH, COHERE_MAX_BATCH);
  }

  async embed(texts: string[], options?: EmbedOptions): Promise<number[][]> {
    const inputType = options?.purpose === 'query' ? 'search_query' : 'search_document';
    const out: number[][] = texts.map(() => new Array<number>(COHERE_DIMENSIONS).fill(0));
    const pending = texts.flatMap((text, index) => (isBlank(text) ? [] : [{ text, index }]));
    await Promise.all(
      chunks(pending, this.batchSize).map(async (batch) => {
        const vectors = await this.call(
          batch.map((item) => item.text.slice(0, MAX_CHARS)),
          inputType,
        );
        batch.forEach((item, i) => {
          out[item.index] = vectors[i] ?? [];
        });
      }),
    );
    return out;
  }

  private async call(texts: string[], inputType: string): Promise<number[][]> {
    const { client, caller, ledger } = this.options;
    const parsed = (await invokeJson(
      client,
      caller,
      { model: this.model, role: 'embed' },
      { texts, input_type: inputType, truncate: 'END' },
    )) as { embeddings?: unknown };
    // With `embedding_types` the vectors come under `embeddings.float`; without, as a plain array.
    const raw = Array.isArray(parsed.embeddings)
      ? parsed.embeddings
      : (parsed.embeddings as { float?: unknown } | undefined)?.float;
    if (
      !Array.isArray(raw) ||
      raw.length !== texts.length ||
      raw.some((v) => !Array.isArray(v) || v.length !== COHERE_DIMENSIONS)
    ) {
      throw new ProviderError(
        `bedrock model ${this.model} (role embed) returned a malformed answer for ${texts.length} texts`,
      );
    }
    // Bedrock does not report Cohere's token counts in the body; the ledger counts the call.
    ledger?.record('embed', { inputTokens: 0, outputTokens: 0 });
    return (raw as number[][]).map(unitLength);
  }
}
