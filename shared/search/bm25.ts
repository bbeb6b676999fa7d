/** Okapi BM25 parameters: `k1` saturates term frequency, `b` normalizes by document length. */
export interface Bm25Params {
  k1: number;
  b: number;
}

/** Corpus statistics over the leaf nodes of the searchable scope. */
export interface Bm25Corpus {
  /** Number of leaf nodes in scope. */
  n: number;
  /** Average document length (token count) over them. */
  avgdl: number;
}

/** One query term as seen in one document. */
export interface Bm25Term {
  /** Occurrences of the term in the document (positions in its tsvector). */
  tf: number;
  /** Number of leaf nodes in scope containing the term. */
  df: number;
}

/**
 * Inverse document frequency, the Lucene/Okapi variant that never goes negative:
 * `idf = ln(1 + (N - df + 0.5) / (df + 0.5))`.
 */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Okapi BM25 of one document for a query: the sum over the query's distinct terms of
 *
 *   idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))
 *
 * where `tf` is the number of occurrences of `t` in the document (the count of its positions in the
 * node's tsvector, section-path and content tokens alike), `dl` the document's token count
 * (`nodes.token_count`), and `N`, `df`, `avgdl` are taken over the leaf nodes of the searchable scope.
 * Terms the document lacks (tf = 0) contribute nothing.
 *
 * @example bm25Score([{ tf: 2, df: 3 }], 40, { n: 100, avgdl: 50 }, { k1: 1.2, b: 0.75 })
 */
export function bm25Score(terms: Bm25Term[], dl: number, corpus: Bm25Corpus, params: Bm25Params): number {
  let score = 0;
  const norm = params.k1 * (1 - params.b + (params.b * dl) / (corpus.avgdl || 1));
  for (const { tf, df } of terms) {
    if (tf <= 0) continue;
    score += (bm25Idf(corpus.n, df) * tf * (params.k1 + 1)) / (tf + norm);
  }
  return score;
}
