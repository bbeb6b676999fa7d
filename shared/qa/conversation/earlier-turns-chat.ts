import type { ChatMessage, ChatModel, ChatRequest } from '#shared/llm/types.ts';
import { recentTurns, type Turn } from './turns.ts';

/** Citation markers of an earlier answer: its [n] numbered that turn's passages, not this one's. */
const CITATION = /\s?\[\d+(?:\s*[,，]\s*\d+)*\]/g;

/**
 * The chat model with the conversation's recent turns (within `budgetTokens`) placed before every
 * answering call (role `answer`: the direct answer, the agent, the two-stage report, the documents
 * synthesis) as earlier user and assistant messages, so that "compare it with the one before" can
 * be answered. Earlier answers lose their citation markers: each turn cites its own passages.
 * Other roles (judges, decomposition, rewriting) see the request as it is.
 */
export function withEarlierTurns(chat: ChatModel, turns: Turn[], budgetTokens: number): ChatModel {
  const history: ChatMessage[] = recentTurns(turns, budgetTokens).flatMap(({ turn }) => [
    { role: 'user', content: turn.question },
    { role: 'assistant', content: turn.answer.replace(CITATION, '').trim() || '…' },
  ]);
  if (history.length === 0) return chat;
  const extend = (request: ChatRequest): ChatRequest =>
    request.role === 'answer' ? { ...request, messages: [...history, ...request.messages] } : request;
  return {
    provider: chat.provider,
    complete: (request) => chat.complete(extend(request)),
    stream: (request) => chat.stream(extend(request)),
    structured: (request, schema) => chat.structured(extend(request), schema),
  };
}
