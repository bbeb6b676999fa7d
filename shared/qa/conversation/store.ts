import { and, asc, count, desc, eq, exists, isNull, lt, not, type SQL } from 'drizzle-orm';
import type { AccessScope } from '#shared/access/scope.ts';
import type { Db } from '#shared/db/client.ts';
import { conversations, qaHistory } from '#shared/db/schema.ts';
import { hideUnreadableQuotes } from './readable-turns.ts';
import type { Turn } from './turns.ts';

/** The filters a conversation carries over from one turn to the next. */
export interface ConversationFilters {
  topic_filter?: string[];
  document_ids?: string[];
  version?: number;
}

/** Who a conversation belongs to: a user's id (the Cognito subject), or null on the local server. */
export type Owner = string | null;

const TITLE_CHARS = 80;
/**
 * A conversation still without a turn this long after it was opened lost its first answer (the
 * stream was cut, or the answer failed): it is swept when its owner opens another.
 */
export const EMPTY_CONVERSATION_TTL_MS = 60 * 60 * 1000;

/** The SQL condition "this conversation is the owner's" (for queries joining `conversations`). */
export function ownedBy(owner: Owner): SQL {
  return owner === null ? isNull(conversations.owner) : eq(conversations.owner, owner);
}

/** The SQL condition "this conversation has at least one answered turn". */
function hasTurns(db: Db): SQL {
  return exists(
    db.select({ id: qaHistory.id }).from(qaHistory).where(eq(qaHistory.conversationId, conversations.id)),
  );
}

/**
 * Starts a conversation titled by its first question and returns its id. The owner's conversations
 * left without a turn for `EMPTY_CONVERSATION_TTL_MS` are deleted first: a conversation is opened
 * before its first answer streams, and a stream cut before the answer is stored leaves it empty.
 */
export async function createConversation(
  db: Db,
  owner: Owner,
  firstQuestion: string,
  filters: ConversationFilters,
  now = new Date(),
): Promise<string> {
  await db
    .delete(conversations)
    .where(
      and(
        ownedBy(owner),
        lt(conversations.updatedAt, new Date(now.getTime() - EMPTY_CONVERSATION_TTL_MS)),
        not(hasTurns(db)),
      ),
    );
  const title = [...firstQuestion].slice(0, TITLE_CHARS).join('');
  const [row] = await db
    .insert(conversations)
    .values({ owner, title, filters: { ...filters } })
    .returning({ id: conversations.id });
  if (!row) throw new Error('the conversation was not created');
  return row.id;
}

/** The owner's conversation with that id, or undefined (another user's is as good as absent). */
export async function findConversation(db: Db, id: string, owner: Owner) {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), ownedBy(owner)));
  return row ? { ...row, filters: row.filters as ConversationFilters } : undefined;
}

/** Records a new turn's filters and its time as the conversation's last activity. */
export async function touchConversation(db: Db, id: string, filters: ConversationFilters): Promise<void> {
  await db
    .update(conversations)
    .set({ filters: { ...filters }, updatedAt: new Date() })
    .where(eq(conversations.id, id));
}

/**
 * The conversation's turns, oldest first, as the follow-up resolution and the answer read them: an
 * answer that quoted a document outside `access` is hidden (`hideUnreadableQuotes`).
 */
export async function conversationTurns(db: Db, access: AccessScope, id: string): Promise<Turn[]> {
  const stored = await db
    .select({ question: qaHistory.question, answer: qaHistory.answer, response: qaHistory.response })
    .from(qaHistory)
    .where(eq(qaHistory.conversationId, id))
    .orderBy(asc(qaHistory.createdAt));
  const rows = await hideUnreadableQuotes(db, access, stored);
  return rows.map((row) => {
    const rewrite = (row.response as { rewrite?: { standalone_question?: string; subject?: string } })
      .rewrite;
    const standalone = rewrite?.standalone_question;
    if (!standalone || standalone === row.question) return { question: row.question, answer: row.answer };
    return {
      question: row.question,
      answer: row.answer,
      standalone_question: standalone,
      ...(rewrite?.subject ? { subject: rewrite.subject } : {}),
    };
  });
}

/**
 * The owner's conversations with at least one answered turn, latest activity first, with their
 * number of turns (one whose first answer never arrived is not listed; it is swept later).
 */
export async function listConversations(db: Db, owner: Owner, page: { limit: number; offset: number }) {
  const [items, totals] = await Promise.all([
    db
      .select({
        id: conversations.id,
        title: conversations.title,
        created_at: conversations.createdAt,
        updated_at: conversations.updatedAt,
        turns: count(qaHistory.id),
      })
      .from(conversations)
      .innerJoin(qaHistory, eq(qaHistory.conversationId, conversations.id))
      .where(ownedBy(owner))
      .groupBy(conversations.id)
      .orderBy(desc(conversations.updatedAt))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: count() })
      .from(conversations)
      .where(and(ownedBy(owner), hasTurns(db))),
  ]);
  return {
    items: items.map((item) => ({ ...item, turns: Number(item.turns) })),
    total: Number(totals[0]?.n ?? 0),
  };
}

/**
 * The `qa_history` rows of a conversation, oldest first, an answer that quoted a document outside
 * `access` hidden (`hideUnreadableQuotes`).
 */
export async function conversationEntries(db: Db, access: AccessScope, id: string) {
  const rows = await db
    .select()
    .from(qaHistory)
    .where(eq(qaHistory.conversationId, id))
    .orderBy(asc(qaHistory.createdAt));
  return hideUnreadableQuotes(db, access, rows);
}

/** Deletes the owner's conversation with its turns; false when there is none. */
export async function deleteConversation(db: Db, id: string, owner: Owner): Promise<boolean> {
  const rows = await db
    .delete(conversations)
    .where(and(eq(conversations.id, id), ownedBy(owner)))
    .returning({ id: conversations.id });
  return rows.length > 0;
}
