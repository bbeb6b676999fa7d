import { agentFlow, autoFlow } from './auto.ts';
import type { QaDeps } from './deps.ts';
import { documentsFlow } from './documents/flow.ts';
import type { QaEvent } from './events.ts';
import type { AskRequest, QaMode } from './request.ts';
import { standardFlow } from './standard.ts';
import { twoStageFlow } from './two-stage/flow.ts';

/**
 * A question-answering flow: after `meta` (sent by `ask`), it streams its events and ends with
 * `finishAnswer` (`references`, `done`); errors it throws become one `error` event.
 */
export type QaFlow = (deps: QaDeps, request: AskRequest, signal?: AbortSignal) => AsyncIterable<QaEvent>;

/**
 * The one place where a mode maps to its flow. A mode without a flow here is answered with a
 * `mode_unavailable` error.
 */
export const FLOWS: Readonly<Partial<Record<QaMode, QaFlow>>> = {
  auto: autoFlow,
  standard: standardFlow,
  agent: agentFlow,
  'two-stage': twoStageFlow,
  documents: documentsFlow,
};
