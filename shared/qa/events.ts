import type { ReasonParams } from '../errors.ts';
import type { Rewrite } from './conversation/turns.ts';
import type { DocumentReference } from './documents/references.ts';
import type { QaMode } from './request.ts';
import type { QaResponse, QaSource, TraceStep } from './response.ts';

/**
 * The events of every question-answering flow, streamed as Server-Sent Events (docs/events.md).
 * A stream starts with `meta` and ends with exactly one `done` or `error`.
 */
export type QaEvent =
  | {
      type: 'meta';
      data: { mode: QaMode; provider: string; question: string; version?: number; conversation_id?: string };
    }
  /** On a turn with earlier turns, before retrieval: the question searched for and the turns it drew on. */
  | { type: 'rewrite'; data: Rewrite }
  | {
      type: 'progress';
      data: { stage: string; current?: number; total?: number; doc_name?: string; message?: string };
    }
  | { type: 'trace'; data: TraceStep }
  | { type: 'subqueries'; data: { items: { text: string; purpose?: string }[] } }
  | { type: 'delta'; data: { text: string } }
  | { type: 'references'; data: { sources: QaSource[]; references?: DocumentReference[] } }
  | { type: 'usage'; data: { stage: string; inputTokens: number; outputTokens: number; model: string } }
  | { type: 'done'; data: { response: QaResponse } }
  /** The API's error body (docs/api.md#errors): a `reason` and `params` where a client shows it. */
  | { type: 'error'; data: { code: string; message: string; reason?: string; params?: ReasonParams } };

export type QaEventType = QaEvent['type'];
