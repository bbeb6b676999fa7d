import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { NotFoundError, ValidationError } from '#shared/errors.ts';
import { pgArray } from '#shared/search/scope.ts';

/**
 * Merges topics into one (`POST /api/topics/merge`): the documents of the source topics are linked
 * to the target (a document in both keeps its higher confidence) and the sources are deleted, in one
 * transaction. Returns the target and how many documents it now has.
 *
 * @example await mergeTopics(db, { sourceIds: [a, b], targetId: c }) // { topicId: c, documents: 7 }
 */
export async function mergeTopics(
  db: Db,
  args: { sourceIds: string[]; targetId: string },
): Promise<{ topicId: string; documents: number }> {
  const sources = [...new Set(args.sourceIds)].filter((id) => id !== args.targetId);
  if (sources.length === 0)
    throw new ValidationError('sourceIds must name at least one topic other than targetId');
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const ids = pgArray([args.targetId, ...sources]);
    const found = await queryRows<{ id: string }>(
      tx,
      sql`SELECT id FROM topics WHERE id = ANY(${ids}::uuid[]) FOR UPDATE`,
    );
    const missing = [args.targetId, ...sources].filter((id) => !found.some((f) => f.id === id));
    if (missing.length > 0) throw new NotFoundError(`topic ${missing.join(', ')} does not exist`);
    await tx.execute(sql`
      INSERT INTO document_topics (document_id, topic_id, confidence)
      SELECT document_id, ${args.targetId}::uuid, max(confidence) FROM document_topics
      WHERE topic_id = ANY(${pgArray(sources)}::uuid[])
      GROUP BY document_id
      ON CONFLICT (document_id, topic_id)
        DO UPDATE SET confidence = greatest(document_topics.confidence, excluded.confidence)`);
    await tx.execute(sql`DELETE FROM topics WHERE id = ANY(${pgArray(sources)}::uuid[])`);
    const [count] = await queryRows<{ n: number }>(
      tx,
      sql`SELECT count(*)::int AS n FROM document_topics WHERE topic_id = ${args.targetId}::uuid`,
    );
    return { topicId: args.targetId, documents: Number(count?.n ?? 0) };
  });
}
