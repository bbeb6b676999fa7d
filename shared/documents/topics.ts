import { sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition } from '../access/scope.ts';
import { type Db, queryRows } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';

export interface TopicSummary {
  id: string;
  name: string;
  description: string | null;
  /** Live documents of the readable collections linked to the topic. */
  documentCount: number;
}

/**
 * Topics with their live document counts, most documents first (topics that link documents before
 * those of one document), with the total for pagination. A topic whose documents are all deleted is
 * left out: it fades with them.
 */
export async function listTopics(
  db: Db,
  access: AccessScope,
  options: { limit: number; offset: number; q?: string },
): Promise<{ items: TopicSummary[]; total: number }> {
  const pattern = options.q ? `%${options.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '%';
  const items = await queryRows<TopicSummary>(
    db,
    sql`SELECT t.id, t.name, t.description, count(d.id)::int AS "documentCount"
        FROM topics t
        LEFT JOIN document_topics dt ON dt.topic_id = t.id
        LEFT JOIN documents d ON d.id = dt.document_id AND d.deleted_at IS NULL
          AND ${collectionCondition(access, sql`d.collection`)}
        WHERE t.name ILIKE ${pattern}
        GROUP BY t.id HAVING count(d.id) > 0
        ORDER BY "documentCount" DESC, max(dt.confidence) DESC, t.name
        LIMIT ${options.limit}::int OFFSET ${options.offset}::int`,
  );
  const [total] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM topics t WHERE t.name ILIKE ${pattern} AND EXISTS (
          SELECT 1 FROM document_topics dt JOIN documents d ON d.id = dt.document_id AND d.deleted_at IS NULL
          WHERE dt.topic_id = t.id AND ${collectionCondition(access, sql`d.collection`)})`,
  );
  return { items, total: Number(total?.n ?? 0) };
}

/**
 * One topic with its count of live readable documents; throws NotFoundError, also when an asker who
 * reads only some collections can read none of its documents (its name may come from them alone).
 */
export async function getTopic(db: Db, access: AccessScope, id: string): Promise<TopicSummary> {
  const [row] = await queryRows<TopicSummary>(
    db,
    sql`SELECT t.id, t.name, t.description, count(d.id)::int AS "documentCount"
        FROM topics t
        LEFT JOIN document_topics dt ON dt.topic_id = t.id
        LEFT JOIN documents d ON d.id = dt.document_id AND d.deleted_at IS NULL
          AND ${collectionCondition(access, sql`d.collection`)}
        WHERE t.id = ${id}::uuid GROUP BY t.id`,
  );
  if (!row || (access.kind !== 'all' && Number(row.documentCount) === 0))
    throw new NotFoundError(`No topic with id ${id}`);
  return row;
}
