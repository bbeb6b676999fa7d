import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { qaHistory } from '#shared/db/schema.ts';
import type { QaResponse } from './response.ts';

/** Stores a finished answer in `qa_history` and returns the row's id. */
export async function saveAnswer(db: Db, question: string, response: QaResponse): Promise<string> {
  const [row] = await db
    .insert(qaHistory)
    .values({
      question,
      mode: response.mode,
      answer: response.answer,
      response: response as unknown as Record<string, unknown>,
    })
    .returning({ id: qaHistory.id });
  return row?.id ?? '';
}

/** Names of the topics linked to the given documents, most confident first. */
export async function topicsOf(db: Db, documentIds: string[], limit = 5): Promise<string[]> {
  if (documentIds.length === 0) return [];
  const rows = await queryRows<{ name: string }>(
    db,
    sql`SELECT t.name FROM document_topics dt JOIN topics t ON t.id = dt.topic_id
        WHERE dt.document_id IN (${sql.join(
          documentIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        GROUP BY t.name ORDER BY max(dt.confidence) DESC, t.name LIMIT ${limit}::int`,
  );
  return rows.map((row) => row.name);
}
