import type { DocumentReference, QaResponse, QaSource, ServerError, TraceStep } from './types.ts';

/** One question and its (streaming or finished) answer in the conversation view. */
export interface Turn {
  id: string;
  question: string;
  mode: string;
  state: 'streaming' | 'done' | 'error' | 'stopped';
  provider?: string;
  progress?: { stage: string; current?: number; total?: number; doc_name?: string; message?: string };
  /** Why the answer was made without the model (a `degraded` progress event): kept under the answer. */
  degraded?: string;
  trace: TraceStep[];
  subqueries: { text: string; purpose?: string }[];
  answer: string;
  sources: QaSource[];
  references: DocumentReference[];
  response?: QaResponse;
  /** On a follow-up: the question retrieval searched for and the earlier turns it drew on. */
  rewrite?: { standalone_question: string; from_turns: number[] };
  error?: ServerError;
}

/**
 * The citations a turn's answer may link to, each with the label its marker shows: its sources'
 * numbers, and its references' ids (documents mode) numbered in their order. A marker naming anything
 * else is text (see `linkCitations`).
 */
export function citationIds(turn: Pick<Turn, 'sources' | 'references'>): Map<string, string> {
  return new Map([
    ...turn.sources.map((source) => [String(source.citation), String(source.citation)] as const),
    ...turn.references.map((reference, i) => [reference.ref_id, String(i + 1)] as const),
  ]);
}

/** A new turn awaiting its first event. */
export function newTurn(question: string, mode: string): Turn {
  return {
    id: `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    question,
    mode,
    state: 'streaming',
    trace: [],
    subqueries: [],
    answer: '',
    sources: [],
    references: [],
  };
}

/**
 * Applies one event of the answer stream (docs/events.md) to a turn. Unknown events are ignored so
 * that a newer server does not break an older page.
 */
export function applyEvent(turn: Turn, event: string, data: unknown): void {
  const d = (data ?? {}) as Record<string, unknown>;
  switch (event) {
    case 'meta':
      turn.provider = typeof d.provider === 'string' ? d.provider : turn.provider;
      break;
    case 'rewrite':
      turn.rewrite = d as unknown as Turn['rewrite'];
      break;
    case 'progress':
      turn.progress = d as Turn['progress'];
      if (d.stage === 'degraded')
        turn.degraded = typeof d.message === 'string' ? d.message : 'The model failed.';
      break;
    case 'trace':
      turn.trace.push(d as unknown as TraceStep);
      break;
    case 'subqueries':
      turn.subqueries = Array.isArray(d.items) ? (d.items as Turn['subqueries']) : [];
      break;
    case 'delta':
      if (typeof d.text === 'string') turn.answer += d.text;
      break;
    case 'references':
      turn.sources = Array.isArray(d.sources) ? (d.sources as QaSource[]) : [];
      if (Array.isArray(d.references)) turn.references = d.references as DocumentReference[];
      break;
    case 'done': {
      const response = d.response as QaResponse | undefined;
      if (response) {
        turn.response = response;
        if (!turn.answer) turn.answer = response.answer;
        if (turn.sources.length === 0) turn.sources = response.sources ?? [];
        if (turn.references.length === 0 && response.references) turn.references = response.references;
        if (!turn.rewrite && response.rewrite) turn.rewrite = response.rewrite;
      }
      turn.state = 'done';
      turn.progress = undefined;
      break;
    }
    case 'error':
      turn.error = {
        code: String(d.code ?? 'error'),
        message: String(d.message ?? 'The answer failed'),
        ...(typeof d.reason === 'string' ? { reason: d.reason } : {}),
        ...(d.params && typeof d.params === 'object' ? { params: d.params as ServerError['params'] } : {}),
      };
      turn.state = 'error';
      turn.progress = undefined;
      break;
  }
}

/** A finished turn from the server's record of it (`GET /api/qa/conversations/{id}` turns). */
export function storedTurn(item: {
  question: string;
  mode: string;
  answer: string;
  response: Partial<QaResponse>;
}): Turn {
  const turn = newTurn(item.question, item.mode);
  turn.state = 'done';
  turn.answer = item.answer;
  turn.provider = item.response.provider;
  turn.sources = item.response.sources ?? [];
  turn.references = item.response.references ?? [];
  turn.trace = item.response.reasoning_trace ?? [];
  turn.rewrite = item.response.rewrite;
  if (item.response.confidence) turn.response = { ...item.response, answer: item.answer } as QaResponse;
  return turn;
}
