import { sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition, documentInScope } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { pgArray } from './scope.ts';

export interface RelatedDocument {
  documentId: string;
  filename: string;
  /** Sum over the shared topics of the lower of the two link confidences. */
  score: number;
  topics: string[];
}

/**
 * Live documents sharing topics with a document (docs/spec.md#related-documents, for multi-hop
 * questions), most related first; `within` limits them to those documents.
 */
export async function relatedDocuments(
  db: Db,
  access: AccessScope,
  documentId: string,
  options: { within?: string[]; limit?: number } = {},
): Promise<RelatedDocument[]> {
  const within = options.within ? sql`AND d.id = ANY(${pgArray(options.within)}::uuid[])` : sql``;
  const rows = await queryRows<{ id: string; filename: string; score: number; topics: string[] | string }>(
    db,
    sql`SELECT d.id, d.filename, sum(least(a.confidence, b.confidence))::float8 AS score,
          array_agg(t.name ORDER BY t.name) AS topics
        FROM document_topics a
        JOIN document_topics b ON b.topic_id = a.topic_id AND b.document_id <> a.document_id
        JOIN documents d ON d.id = b.document_id AND d.deleted_at IS NULL AND d.current_version IS NOT NULL
          AND ${collectionCondition(access, sql`d.collection`)}
        JOIN topics t ON t.id = a.topic_id
        WHERE a.document_id = ${documentId}::uuid AND ${documentInScope(access, sql`a.document_id`)} ${within}
        GROUP BY d.id, d.filename ORDER BY score DESC, d.filename LIMIT ${options.limit ?? 10}::int`,
  );
  return rows.map((row) => ({
    documentId: row.id,
    filename: row.filename,
    score: Number(row.score),
    topics: Array.isArray(row.topics) ? row.topics : parsePgArray(String(row.topics)),
  }));
}

/** A text[] that a driver returned in its literal form `{a,"b c"}`. */
function parsePgArray(literal: string): string[] {
  const body = literal.replace(/^\{|\}$/g, '');
  if (!body) return [];
  return [...body.matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? ''),
  );
}
