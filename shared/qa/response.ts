import { z } from 'zod';
import type { QuoteCheck } from './citations.ts';
import type { Rewrite } from './conversation/turns.ts';
import type { DocumentReference } from './documents/references.ts';
import type { QaMode } from './request.ts';

export type Confidence = 'high' | 'medium' | 'low';

/** A cited passage (docs/spec.md#response); `citation` is the `[n]` marker the answer uses for it. */
export interface QaSource {
  citation: number;
  document_id: string;
  document_name: string;
  /** Section path, "第1章 概述 > 1.2 项目目标" (empty for text before the first heading). */
  section: string;
  snippet: string;
  /** Cosine similarity between the question and the passage, 0..1. */
  relevance: number;
  node_id: string;
  version: number;
  /**
   * Present when the answer quotes this passage: false when any quote presented as verbatim was not
   * found in the passage's text (docs/spec.md#response).
   */
  verified?: boolean;
  /** The quotes of the answer that cite this passage, each checked against its text. */
  quotes?: QuoteCheck[];
}

/** One step of a reasoning trace (docs/spec.md#reasoning-trace). */
export interface TraceStep {
  step: number;
  type: 'thought' | 'action' | 'observation';
  content: string;
  tool?: string;
}

/**
 * The rows a table answer used, as a table (docs/events.md#table): the page shows it in place of
 * the answer's text list of the rows, which stays in `answer` for the API and the CLI.
 */
export const qaTableSchema = z.object({
  /** The sheet's name, or the heading or caption above the table. */
  title: z.string(),
  /** Header names of the columns shown: those with a value in at least one row shown. */
  columns: z.array(z.string()),
  rows: z.array(
    z.object({
      /** The `[n]` marker of the passage that holds the row (`sources[n - 1]`). */
      citation: z.number().int().min(1),
      /** The row's number in its sheet, or its place in the table from 1. */
      number: z.number().int(),
      /** Cell texts aligned with `columns` ('' for an empty cell). */
      cells: z.array(z.string()),
    }),
  ),
  /** Where the answer's text list of these rows starts: a character offset into `answer`. */
  text_at: z.number().int().min(0),
});

export type QaTable = z.infer<typeof qaTableSchema>;

/** The flow that produced an answer: `direct` is the standard RAG fast path. */
export type AnswerMode = 'direct' | 'agent' | 'two-stage' | 'documents';

/** A finished answer, as the `done` event carries it and `qa_history.response` stores it. */
export interface QaResponse {
  answer: string;
  confidence: Confidence;
  sources: QaSource[];
  identified_topics: string[];
  mode: AnswerMode;
  /** The mode the question was asked with. */
  requested_mode: QaMode;
  /** Standard flow: retrieval + answer steps taken. */
  reasoning_steps?: number;
  /** Agent flow: loop iterations. */
  iterations?: number;
  /** Quotes presented as verbatim that cite no passage and occur in none of them. */
  unverified_quotes?: string[];
  /**
   * Documents mode: the answer's [DOC-...-PARA/IMAGE-n] markers resolved
   * (docs/spec.md#document-references).
   */
  references?: DocumentReference[];
  /** A table answer: the rows it used, as a table. */
  table?: QaTable;
  /** Present when the request asked `show_reasoning`. */
  reasoning_trace?: TraceStep[];
  /** Which provider answered, e.g. "offline (extractive)". */
  provider: string;
  version?: number;
  /** The `qa_history` row of this answer. */
  history_id?: string;
  /** The conversation the answer belongs to. */
  conversation_id?: string;
  /** On a turn with earlier turns: the question retrieval used and the turns it drew on. */
  rewrite?: Rewrite;
}
