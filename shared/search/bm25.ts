import { isCharacterGram } from '#shared/index/analyze.ts';

/**
 * Okapi BM25 parameters: `k1` saturates term frequency, `b` normalizes by document length,
 * `idfExponent` sharpens idf so rare terms outweigh common ones more than plain BM25 (1 = plain),
 * `titleWeight` counts an occurrence in the title and section path (tsvector weight A) that many
 * times (1 = like any other). `grams`, when given, are the parameters of the second field, the CJK
 * character grams (`isCharacterGram`), scored against the leaf's gram count as its length; the
 * leaf's score is the sum of both fields' (BM25 over separate fields). Without it a gram is scored
 * like a word, against the word length.
 */
export interface Bm25Params {
  k1: number;
  b: number;
  idfExponent?: number;
  titleWeight?: number;
  /** Weight of the title coverage fused into a leaf's score (`withTitleCoverage`); 0 or omitted: none. */
  titleCoverage?: number;
  grams?: Omit<Bm25Params, 'grams'>;
}

/**
 * The field a term is scored in: the gram field (its parameters, the leaf's gram count as length)
 * for a character gram when `params.grams` is set, else the word field.
 */
export function termField(term: string, params: Bm25Params): { gram: boolean; params: Bm25Params } {
  return params.grams && isCharacterGram(term)
    ? { gram: true, params: params.grams }
    : { gram: false, params };
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
  /** How many of them are in the title or section path (weight A); 0 when omitted. */
  titleTf?: number;
  /** Number of leaf nodes in scope containing the term. */
  df: number;
  /** The query term's weight (1 for a word of the query; see `QueryTerm`). */
  weight?: number;
}

/** A term of an analysed query and its weight: 1 for the query's own words, less for expansion terms. */
export interface QueryTerm {
  term: string;
  weight: number;
}

/**
 * Inverse document frequency, the Lucene/Okapi variant that never goes negative:
 * `idf = ln(1 + (N - df + 0.5) / (df + 0.5))`.
 */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * What a term found in a document is worth before term frequency: its query weight times
 * idf^idfExponent. With the exponent above 1 a long query's common words ("associated", "higher",
 * "patients") add up to less against its rare ones than plain BM25 lets them (README, Retrieval
 * quality: scifact-train full-text nDCG@10 0.683 at 1, 0.690 at 1.5).
 */
export function bm25TermWeight(n: number, df: number, params: Bm25Params, weight = 1): number {
  return weight * bm25Idf(n, df) ** (params.idfExponent ?? 1);
}

/** Term frequency with title occurrences counted `titleWeight` times. */
export function weightedTf(tf: number, titleTf: number, params: Bm25Params): number {
  return tf + ((params.titleWeight ?? 1) - 1) * titleTf;
}

/**
 * Okapi BM25 of one document for a query: the sum over the query's distinct terms of
 *
 *   w * idf(t)^e * tf' * (k1 + 1) / (tf' + k1 * (1 - b + b * dl / avgdl))
 *
 * where `tf'` is the number of occurrences of `t` in the document (the count of its positions in the
 * node's tsvector), those in the title or section path counted `titleWeight` times, `dl` the
 * document's token count (`nodes.token_count`), `w` the query term's weight, `e` the idf exponent,
 * and `N`, `df`, `avgdl` are taken over the leaf nodes of the searchable scope. Terms the document
 * lacks (tf = 0) contribute nothing. Exponent, title weight and term weights 1 give plain Okapi BM25.
 * This is one field's score: with `params.grams` (`termField`) a leaf scores this over its word terms
 * plus this over its character grams, with the grams' parameters and `nodes.gram_count` as `dl`.
 *
 * @example bm25Score([{ tf: 2, df: 3 }], 40, { n: 100, avgdl: 50 }, { k1: 1.2, b: 0.75 })
 */
export function bm25Score(terms: Bm25Term[], dl: number, corpus: Bm25Corpus, params: Bm25Params): number {
  let score = 0;
  const norm = params.k1 * (1 - params.b + (params.b * dl) / (corpus.avgdl || 1));
  for (const { tf, titleTf = 0, df, weight } of terms) {
    if (tf <= 0) continue;
    const f = weightedTf(tf, titleTf, params);
    score += (bm25TermWeight(corpus.n, df, params, weight) * f * (params.k1 + 1)) / (f + norm);
  }
  return score;
}

/** Each term once, with the weight it is first given. */
export function distinctTerms(terms: readonly QueryTerm[]): Map<string, number> {
  const unique = new Map<string, number>();
  for (const { term, weight } of terms) if (!unique.has(term)) unique.set(term, weight);
  return unique;
}
