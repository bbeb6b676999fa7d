import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { isCharacterGram } from '#shared/index/analyze.ts';
import type { QueryTerm } from './bm25.ts';
import { pgArray } from './scope.ts';
import { parseTsvectorCounts, type TermCount } from './tsvector-text.ts';
import type { RankedNode } from './types.ts';

/**
 * Expansion terms held by more than this share of the scope's leaves are left out: they carry little
 * and their long postings slow the second ranking (scifact-train 0.699 with them, 0.700 without).
 */
export const MAX_EXPANSION_SHARE = 0.1;

/** Below this the original query would vanish from its own expansion. */
export const MIN_ORIGINAL_WEIGHT = 0.05;

/** Pseudo-relevance feedback settings (`search.feedback`). */
export interface FeedbackOptions {
  /** How many of the first ranking's best leaves are read as relevant; 0 turns feedback off. */
  documents: number;
  /** How many expansion terms are added. */
  terms: number;
  /** The share of the expanded query's weight left to the original terms (0..1). */
  originalWeight: number;
}

/** One feedback leaf: its terms and its first-pass BM25 score. */
export interface FeedbackLeaf {
  terms: ReadonlyMap<string, TermCount>;
  score: number;
}

/**
 * The relevance model of RM3 (Lavrenko & Croft): P(t|R) = sum over the feedback leaves d of
 * P(d|Q) * tf(t,d) / |d|, with P(d|Q) the softmax of the leaves' BM25 scores; terms by falling
 * probability (ties by term).
 */
export function relevanceModel(leaves: readonly FeedbackLeaf[]): [string, number][] {
  // Only words: a Chinese leaf's character grams (a second field of the same text) are not added.
  if (leaves.length === 0) return [];
  const best = Math.max(...leaves.map((leaf) => leaf.score));
  const priors = leaves.map((leaf) => Math.exp(leaf.score - best));
  const z = priors.reduce((sum, p) => sum + p, 0);
  const relevance = new Map<string, number>();
  leaves.forEach((leaf, i) => {
    let length = 0;
    for (const [term, count] of leaf.terms) if (!isCharacterGram(term)) length += count.tf;
    if (length === 0) return;
    const p = (priors[i] ?? 0) / z;
    for (const [term, count] of leaf.terms)
      if (!isCharacterGram(term)) relevance.set(term, (relevance.get(term) ?? 0) + (p * count.tf) / length);
  });
  return [...relevance].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/**
 * RM3 query expansion, the relevance model interpolated with the query as in Anserini's RM3: the
 * `terms` most probable terms of `model` (`relevanceModel`) whose share of the scope's leaves
 * (`share`) is at most `MAX_EXPANSION_SHARE` are added. The original terms hold `originalWeight` of
 * the expanded query's weight, the expansion terms the rest in proportion to P(t|R); scaled so the
 * original terms keep their own weights (the ranking is that of the normalised mixture). A term in
 * both adds up. On scifact-train (README, Retrieval quality) full-text nDCG@10 0.695 -> 0.700 with
 * 5 leaves, 20 terms, 0.7.
 *
 * @example expandQuery([{ term: 'p53', weight: 1 }], relevanceModel(leaves), { documents: 5, terms: 20, originalWeight: 0.7 })
 */
export function expandQuery(
  query: readonly QueryTerm[],
  model: readonly [string, number][],
  options: FeedbackOptions,
  share: (term: string) => number = () => 0,
): QueryTerm[] {
  const added = expansionTerms(query, model, options, share);
  if (added.length === 0) return [...query];
  const weights = new Map<string, number>();
  for (const { term, weight } of [...query, ...added]) weights.set(term, (weights.get(term) ?? 0) + weight);
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

/**
 * What `expandQuery` adds to the query: each expansion term with the weight it adds (a term also
 * in the query adds this to its own weight). BM25 being a sum over terms, scoring these on top of
 * the query's own scores ranks as the expanded query does (`Bm25Scorer`).
 */
export function expansionTerms(
  query: readonly QueryTerm[],
  model: readonly [string, number][],
  options: FeedbackOptions,
  share: (term: string) => number = () => 0,
): QueryTerm[] {
  const expansion = model
    .filter(([term]) => share(term) <= MAX_EXPANSION_SHARE)
    .slice(0, Math.max(0, options.terms));
  if (expansion.length === 0 || query.length === 0) return [];
  const expansionTotal = expansion.reduce((sum, [, p]) => sum + p, 0) || 1;
  const queryTotal = query.reduce((sum, t) => sum + t.weight, 0) || 1;
  const alpha = Math.min(1, Math.max(MIN_ORIGINAL_WEIGHT, options.originalWeight));
  const expansionWeight = ((1 - alpha) / alpha) * queryTotal;
  return expansion.map(([term, p]) => ({ term, weight: (expansionWeight * p) / expansionTotal }));
}

/** The feedback leaves of a first ranking: its first `count` hits with their indexed terms. */
export async function feedbackLeaves(
  db: Db,
  ranked: readonly RankedNode[],
  count: number,
): Promise<FeedbackLeaf[]> {
  const top = ranked.slice(0, count);
  if (top.length === 0) return [];
  const rows = await queryRows<{ id: string; tsv: string | null }>(
    db,
    sql`SELECT id, search_vector::text AS tsv FROM nodes WHERE id = ANY(${pgArray(top.map((hit) => hit.nodeId))}::uuid[])`,
  );
  const vectors = new Map(rows.map((row) => [row.id, row.tsv]));
  return top.map((hit) => ({ terms: parseTsvectorCounts(vectors.get(hit.nodeId) ?? ''), score: hit.score }));
}
