import type OpenAI from 'openai';
import { ProviderError } from '#shared/errors.ts';
import { chunks, isBlank, unitLength } from '../embedding/vectors.ts';
import type { ResilientCaller } from '../resilience/caller.ts';
import type { Embedder } from '../types.ts';
import type { UsageLedger } from '../usage.ts';

export interface OpenAiEmbedderOptions {
  client: OpenAI;
  model: string;
  dimensions: number;
  /** Texts per `/v1/embeddings` call. */
  batchSize: number;
  caller: ResilientCaller;
  ledger?: UsageLedger;
}

/**
 * Embeddings from an OpenAI-compatible `/v1/embeddings` endpoint, `batchSize` texts per call (calls
 * concurrent within the caller's limit), normalized to unit length. The `dimensions` parameter is
 * sent only to models known to take it (OpenAI's text-embedding-3 family); for any other model the
 * configured dimensions must match what it returns, which is checked.
 */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.model = options.model;
    this.dimensions = options.dimensions;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = texts.map(() => new Array<number>(this.dimensions).fill(0));
    const pending = texts.flatMap((text, index) => (isBlank(text) ? [] : [{ text, index }]));
    await Promise.all(
      chunks(pending, this.options.batchSize).map(async (batch) => {
        const vectors = await this.call(batch.map((item) => item.text));
        batch.forEach((item, i) => {
          out[item.index] = vectors[i] ?? [];
        });
      }),
    );
    return out;
  }

  private async call(input: string[]): Promise<number[][]> {
    const { client, caller, ledger } = this.options;
    const sendDimensions = /^text-embedding-3/.test(this.model);
    const response = await caller.call({ model: this.model, role: 'embed' }, (signal) =>
      client.embeddings.create(
        {
          model: this.model,
          input,
          encoding_format: 'float',
          ...(sendDimensions ? { dimensions: this.dimensions } : {}),
        },
        { signal },
      ),
    );
    const vectors: number[][] = new Array(input.length);
    for (const item of response.data) vectors[item.index] = item.embedding;
    for (let i = 0; i < input.length; i++) {
      const length = vectors[i]?.length;
      if (length !== this.dimensions) {
        throw new ProviderError(
          `openai model ${this.model} (role embed) returned ${length === undefined ? 'no vector' : `${length} dimensions`} for input ${i}; providers.embedder.dimensions is ${this.dimensions}`,
        );
      }
    }
    ledger?.record('embed', { inputTokens: response.usage?.prompt_tokens ?? 0, outputTokens: 0 });
    return vectors.map(unitLength);
  }
}
