export { ask, type QaDeps } from './ask.ts';
export { encodeSse, type QaEvent, type QaEventType } from './events.ts';
export { type AskRequest, type AskRequestInput, askRequestSchema, QA_MODES, type QaMode } from './request.ts';
export type { AnswerMode, Confidence, QaResponse, QaSource, TraceStep } from './response.ts';
export { standardFlow } from './standard.ts';
