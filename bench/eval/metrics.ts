/** Ranking quality of one query: the standard trec_eval definitions over a ranked list of ids. */
export interface QueryMetrics {
  ndcg10: number;
  recall100: number;
  mrr10: number;
  hits10: number;
}

/**
 * nDCG@10 (gain = graded relevance, discount log2(rank + 1), ideal from the judged grades),
 * Recall@100, MRR@10 (reciprocal rank of the first relevant id within 10) and Hits@10 (1 when any
 * relevant id is in the first 10). Duplicated ids count once, at their first rank.
 *
 * @example queryMetrics(['d3', 'd1'], new Map([['d1', 1]])) // { ndcg10: 0.63, recall100: 1, mrr10: 0.5, hits10: 1 }
 */
export function queryMetrics(ranked: readonly string[], relevant: ReadonlyMap<string, number>): QueryMetrics {
  const ids = [...new Set(ranked)];
  let dcg = 0;
  let mrr = 0;
  let found100 = 0;
  ids.slice(0, 100).forEach((id, i) => {
    const grade = relevant.get(id) ?? 0;
    if (grade <= 0) return;
    found100 += 1;
    if (i < 10) {
      dcg += grade / Math.log2(i + 2);
      if (mrr === 0) mrr = 1 / (i + 1);
    }
  });
  const ideal = [...relevant.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, grade, i) => sum + grade / Math.log2(i + 2), 0);
  const judged = [...relevant.values()].filter((g) => g > 0).length;
  return {
    ndcg10: ideal > 0 ? dcg / ideal : 0,
    recall100: judged > 0 ? found100 / judged : 0,
    mrr10: mrr,
    hits10: mrr > 0 ? 1 : 0,
  };
}

/** The mean of each metric over queries. */
export function meanMetrics(all: readonly QueryMetrics[]): QueryMetrics {
  const sum = { ndcg10: 0, recall100: 0, mrr10: 0, hits10: 0 };
  for (const m of all) {
    sum.ndcg10 += m.ndcg10;
    sum.recall100 += m.recall100;
    sum.mrr10 += m.mrr10;
    sum.hits10 += m.hits10;
  }
  const n = Math.max(1, all.length);
  return {
    ndcg10: sum.ndcg10 / n,
    recall100: sum.recall100 / n,
    mrr10: sum.mrr10 / n,
    hits10: sum.hits10 / n,
  };
}

/** The q-quantile (0..1) of a list of numbers, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}
