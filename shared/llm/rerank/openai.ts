import type OpenAI from 'openai';
import { ProviderError } from '#shared/errors.ts';
import type { ResilientCaller } from '../resilience/caller.ts';
import type { UsageLedger } from '../usage.ts';
import { completeRanking, type Reranker, type RerankScore } from './types.ts';

export interface OpenAiRerankerOptions {
  /** Its base URL ends in `/v1`; the reranker posts to `<baseUrl>/rerank`. */
  client: OpenAI;
  model: string;
  caller: ResilientCaller;
  ledger?: UsageLedger;
}

interface RerankBody {
  results?: { index?: number; relevance_score?: number }[];
  usage?: { total_tokens?: number; prompt_tokens?: number };
}

/**
 * The `/v1/rerank` endpoint OpenAI-compatible servers expose for cross-encoders (vLLM, Jina, TEI
 * behind its OpenAI router, LocalAI): `{ model, query, documents, top_n }` in,
 * `{ results: [{ index, relevance_score }] }` out.
 */
export class OpenAiReranker implements Reranker {
  readonly model: string;

  constructor(private readonly options: OpenAiRerankerOptions) {
    this.model = options.model;
  }

  async rerank(query: string, passages: string[]): Promise<RerankScore[]> {
    if (passages.length === 0) return [];
    const { client, caller, ledger } = this.options;
    const body = await caller.call({ model: this.model, role: 'rerank' }, (signal) =>
      client.post<RerankBody>('/rerank', {
        body: { model: this.model, query, documents: passages, top_n: passages.length },
        signal,
      }),
    );
    if (!Array.isArray(body?.results)) {
      throw new ProviderError(`openai reranker ${this.model} returned no results list`);
    }
    ledger?.record('rerank', {
      inputTokens: body.usage?.prompt_tokens ?? body.usage?.total_tokens ?? 0,
      outputTokens: 0,
    });
    const scores = body.results.map((r) => ({
      index: Number(r.index),
      score: Number(r.relevance_score ?? 0),
    }));
    return completeRanking(scores, passages.length, this.model);
  }
}
