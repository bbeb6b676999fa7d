import { sql } from 'drizzle-orm';
import { type AccessScope, documentInScope } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { qaHistory } from '#shared/db/schema.ts';
import { createConversation } from './conversation/store.ts';
import type { AskRequest } from './request.ts';
import type { QaResponse } from './response.ts';

/**
 * Stores a finished answer as a turn of the request's conversation in `qa_history` (the question as
 * the user asked it, the rewrite with the response; a flow run on its own starts a conversation of
 * its own), sets the response's `conversation_id` and `rewrite`, and returns the row's id.
 */
export async function saveAnswer(db: Db, request: AskRequest, response: QaResponse): Promise<string> {
  const question = request.turn?.asked ?? request.question;
  const conversationId = request.turn?.conversationId ?? (await createConversation(db, null, question, {}));
  response.conversation_id = conversationId;
  if (request.turn?.rewrite) response.rewrite = request.turn.rewrite;
  const [row] = await db
    .insert(qaHistory)
    .values({
      conversationId,
      question,
      mode: response.mode,
      answer: response.answer,
      response: response as unknown as Record<string, unknown>,
    })
    .returning({ id: qaHistory.id });
  return row?.id ?? '';
}

/**
 * Names of the topics linked to the given documents, most confident first, formed only from the
 * documents of the collections `access` reads.
 */
export async function topicsOf(
  db: Db,
  access: AccessScope,
  documentIds: string[],
  limit = 5,
): Promise<string[]> {
  if (documentIds.length === 0) return [];
  const rows = await queryRows<{ name: string }>(
    db,
    sql`SELECT t.name FROM document_topics dt JOIN topics t ON t.id = dt.topic_id
        WHERE dt.document_id IN (${sql.join(
          documentIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) AND ${documentInScope(access, sql`dt.document_id`)}
        GROUP BY t.name ORDER BY max(dt.confidence) DESC, t.name LIMIT ${limit}::int`,
  );
  return rows.map((row) => row.name);
}
