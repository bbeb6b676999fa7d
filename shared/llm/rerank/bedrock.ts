import type { BedrockAgentRuntimeClient } from '@aws-sdk/client-bedrock-agent-runtime';
import { RerankCommand } from '@aws-sdk/client-bedrock-agent-runtime';
import { ProviderError } from '#shared/errors.ts';
import type { ResilientCaller } from '../resilience/caller.ts';
import type { UsageLedger } from '../usage.ts';
import { completeRanking, type Reranker, type RerankScore } from './types.ts';

export interface BedrockRerankerOptions {
  client: BedrockAgentRuntimeClient;
  /** A model ARN (`arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0`). */
  modelArn: string;
  caller: ResilientCaller;
  ledger?: UsageLedger;
}

/**
 * Bedrock Rerank (`RerankCommand` of the Agents runtime; Amazon Rerank and Cohere Rerank models):
 * the query and the passages inline as text, every passage's score asked for.
 */
export class BedrockReranker implements Reranker {
  readonly model: string;

  constructor(private readonly options: BedrockRerankerOptions) {
    this.model = options.modelArn;
  }

  async rerank(query: string, passages: string[]): Promise<RerankScore[]> {
    if (passages.length === 0) return [];
    const { client, caller, ledger } = this.options;
    const response = await caller.call({ model: this.model, role: 'rerank' }, (abortSignal) =>
      client.send(
        new RerankCommand({
          queries: [{ type: 'TEXT', textQuery: { text: query } }],
          sources: passages.map((text) => ({
            type: 'INLINE',
            inlineDocumentSource: { type: 'TEXT', textDocument: { text } },
          })),
          rerankingConfiguration: {
            type: 'BEDROCK_RERANKING_MODEL',
            bedrockRerankingConfiguration: {
              numberOfResults: passages.length,
              modelConfiguration: { modelArn: this.model },
            },
          },
        }),
        { abortSignal },
      ),
    );
    if (!Array.isArray(response.results)) {
      throw new ProviderError(`bedrock reranker ${this.model} returned no results`);
    }
    ledger?.record('rerank', { inputTokens: 0, outputTokens: 0 });
    const scores = response.results.map((r) => ({
      index: Number(r.index),
      score: Number(r.relevanceScore ?? 0),
    }));
    return completeRanking(scores, passages.length, this.model);
  }
}
