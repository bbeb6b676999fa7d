import { z } from 'zod';
import type { SearchHit } from '#shared/search/types.ts';
import type { Confidence } from '../response.ts';

/**
 * A sub-query (docs/spec.md#decomposition): an affirmative statement to search for, and the aspect
 * it covers.
 */
export interface SubQuery {
  id: number;
  text: string;
  focus: string;
  /** 1 for the first stage, 2 for the sufficiency judge's additions. */
  stage: 1 | 2;
}

/**
 * A passage extracted verbatim from a hit (docs/spec.md#relevance-judge); the source name is the
 * hit's document.
 */
export interface RelevantExtract {
  hit: SearchHit;
  text: string;
}

/** What the relevance judge made of one sub-query's hits (docs/spec.md#relevance-judge). */
export interface SubQueryAnalysis {
  subquery: SubQuery;
  answer: string;
  extracts: RelevantExtract[];
  confidence: Confidence;
  missing: string[];
}

/** The sufficiency judge's verdict (docs/spec.md#sufficiency). */
export interface SufficiencyVerdict {
  sufficient: boolean;
  confidence: Confidence;
  covered: string[];
  missing: string[];
  additional: Omit<SubQuery, 'id' | 'stage'>[];
  reason: string;
}

const confidence = z.enum(['high', 'medium', 'low']);
const statement = z.object({
  text: z.string().trim().min(1).max(500),
  focus: z.string().max(300).default(''),
});

/** The decomposition agent's JSON (role `decompose`); more than the maximum is cut, not refused. */
export const decompositionSchema = z.object({ subqueries: z.array(statement).min(1).max(20) });

/** The relevance judge's JSON (role `judge`). */
export const judgmentSchema = z.object({
  extracts: z.array(z.object({ passage: z.number().int(), text: z.string().min(1) })).max(50),
  answer: z.string().max(4000),
  confidence,
  missing: z.array(z.string().max(500)).max(20).default([]),
});

/** The sufficiency judge's JSON (role `sufficiency`). */
export const sufficiencySchema = z.object({
  sufficient: z.boolean(),
  confidence: confidence.default('medium'),
  covered: z.array(z.string().max(500)).max(20).default([]),
  missing: z.array(z.string().max(500)).max(20).default([]),
  additional: z.array(statement).max(20).default([]),
  reason: z.string().max(1000).default(''),
});

/** Settings of the two-stage mode; defaults in parentheses. */
export interface TwoStageOptions {
  /** First-stage sub-queries (5, docs/spec.md#two-stage). */
  maxSubQueries?: number;
  /** Sub-queries the second stage may add (3). */
  maxExtraQueries?: number;
  /** Passages retrieved per sub-query (`search.topK`). */
  topK?: number;
  /**
   * Time allowed for decomposition, retrieval, judging and the sufficiency verdict (20,000 ms); past
   * it the flow falls back to a single retrieval for the question and says so in the stream.
   */
  timeoutMs?: number;
  /**
   * Start the answer while the sufficiency judge runs (true): it streams as soon as the verdict says
   * the first stage suffices, and is discarded when a second stage is needed.
   */
  speculative?: boolean;
}
