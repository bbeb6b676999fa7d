import type { AccessScope } from '#shared/access/scope.ts';
import type { Db } from '#shared/db/client.ts';
import { NotFoundError } from '#shared/errors.ts';
import type { AskRequest } from '../request.ts';
import {
  type ConversationFilters,
  conversationTurns,
  createConversation,
  findConversation,
  type Owner,
  touchConversation,
} from './store.ts';

/**
 * The filters of the new turn: each one the request sends replaces the conversation's (`[]` or a
 * null version drops it), each one it leaves out carries over.
 */
export function carryFilters(stored: ConversationFilters, request: AskRequest): ConversationFilters {
  const pick = <K extends keyof ConversationFilters>(
    key: K,
    sent: ConversationFilters[K] | null | undefined,
  ) => {
    const value = sent === undefined ? stored[key] : sent;
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return {};
    return { [key]: value } as Pick<ConversationFilters, K>;
  };
  return {
    ...pick('topic_filter', request.topic_filter),
    ...pick('document_ids', request.document_ids),
    ...pick('version', request.version),
  };
}

/**
 * Opens the turn a request asks: its conversation (the owner's `conversation_id`, else a new one,
 * titled by the question), the earlier turns (stored, or the request's `history`) and the filters
 * in force, recorded on the conversation. Throws NotFoundError for a conversation the owner does
 * not have.
 */
export async function startTurn(
  db: Db,
  access: AccessScope,
  request: AskRequest,
  owner: Owner,
): Promise<AskRequest> {
  const stored = request.conversation_id
    ? await findConversation(db, request.conversation_id, owner)
    : undefined;
  if (request.conversation_id && !stored)
    throw new NotFoundError(`No conversation ${request.conversation_id}`);
  const filters = carryFilters(stored?.filters ?? {}, request);
  let conversationId: string;
  if (stored) {
    conversationId = stored.id;
    await touchConversation(db, conversationId, filters);
  } else {
    conversationId = await createConversation(db, owner, request.question, filters);
  }
  const earlier = stored ? await conversationTurns(db, access, conversationId) : (request.history ?? []);
  const { history: _history, topic_filter: _t, document_ids: _d, version: _v, ...rest } = request;
  return {
    ...rest,
    ...filters,
    conversation_id: conversationId,
    turn: { asked: request.question, conversationId, earlier },
  };
}
