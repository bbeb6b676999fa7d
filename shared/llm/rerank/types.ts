import { ProviderError } from '#shared/errors.ts';

/** One passage's place after reranking: its index in the input and the model's relevance score. */
export interface RerankScore {
  index: number;
  score: number;
}

/**
 * A cross-encoder reranker (docs/spec.md#reranking): scores each passage against the query together, which a
 * bi-encoder embedding cannot. `rerank` returns every passage it was given, best first.
 */
export interface Reranker {
  /** Model id or ARN, named in errors and traces. */
  readonly model: string;
  rerank(query: string, passages: string[]): Promise<RerankScore[]>;
}

/**
 * Every passage exactly once, best first (equal scores in input order): what the model returned, then
 * any it left out, in input order.
 */
export function completeRanking(scores: RerankScore[], count: number, model: string): RerankScore[] {
  const seen = new Set<number>();
  const ranked: RerankScore[] = [];
  // Equal scores keep the input order (the search's ranking), whatever order the model listed them in.
  for (const item of [...scores].sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (!Number.isInteger(item.index) || item.index < 0 || item.index >= count) {
      throw new ProviderError(`reranker ${model} returned index ${item.index} for ${count} passages`);
    }
    if (seen.has(item.index)) continue;
    seen.add(item.index);
    ranked.push(item);
  }
  const floor = Math.min(0, ...ranked.map((r) => r.score)) - 1;
  for (let index = 0; index < count; index++) if (!seen.has(index)) ranked.push({ index, score: floor });
  return ranked;
}
