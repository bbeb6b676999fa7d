import { sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { NotFoundError } from '#shared/errors.ts';
import { readVersionNodes } from '#shared/index/version-nodes.ts';

/** A document version as the summary reads it: its own summary and its sections' in reading order. */
export interface DocumentOutline {
  id: string;
  name: string;
  version: number;
  summary: string;
  sections: { depth: number; title: string; summary: string }[];
  /** The leaves' text in reading order, for documents without summaries. */
  texts: string[];
}

/**
 * Loads the outline of a live document's version (default current) in a readable collection;
 * `NotFoundError` when absent or in another collection.
 */
export async function loadDocumentOutline(
  db: Db,
  access: AccessScope,
  documentId: string,
  version?: number,
): Promise<DocumentOutline> {
  const [doc] = await queryRows<{ name: string; version: number | null }>(
    db,
    sql`SELECT filename AS name, coalesce(${version ?? null}::int, current_version) AS version
        FROM documents WHERE id = ${documentId}::uuid AND deleted_at IS NULL
        AND ${collectionCondition(access, sql`collection`)}`,
  );
  if (!doc || doc.version === null) throw new NotFoundError(`Document ${documentId} not found`);
  const rows = await readVersionNodes<{
    node_type: string;
    depth: number;
    title: string | null;
    summary: string | null;
    content: string | null;
  }>(
    db,
    { documentId, version: Number(doc.version) },
    sql`n.node_type, n.depth, n.title, n.summary, n.content`,
  );
  if (rows.length === 0) throw new NotFoundError(`Document ${documentId} has no version ${doc.version}`);
  return {
    id: documentId,
    name: doc.name,
    version: Number(doc.version),
    summary: rows.find((r) => r.node_type === 'document')?.summary ?? '',
    sections: rows
      .filter((r) => r.node_type === 'section')
      .map((r) => ({ depth: r.depth, title: r.title ?? '', summary: r.summary ?? '' })),
    texts: rows
      .filter((r) => r.node_type === 'paragraph' || r.node_type === 'table')
      .map((r) => r.content ?? ''),
  };
}

/**
 * A topic with the live documents of the readable collections linked to it, most confident first
 * (at most `limit`); the others are left out.
 */
export async function loadTopic(
  db: Db,
  access: AccessScope,
  topicId: string,
  limit = 20,
): Promise<{
  name: string;
  description: string;
  documents: { id: string; name: string; version: number; summary: string }[];
}> {
  const [topic] = await queryRows<{ name: string; description: string | null }>(
    db,
    sql`SELECT name, description FROM topics WHERE id = ${topicId}::uuid`,
  );
  if (!topic) throw new NotFoundError(`Topic ${topicId} not found`);
  const documents = await queryRows<{ id: string; name: string; version: number; summary: string | null }>(
    db,
    sql`SELECT d.id, d.filename AS name, d.current_version AS version, n.summary FROM document_topics dt
        JOIN documents d ON d.id = dt.document_id AND d.deleted_at IS NULL AND d.current_version IS NOT NULL
          AND ${collectionCondition(access, sql`d.collection`)}
        LEFT JOIN nodes n ON n.document_id = d.id AND n.version = d.current_version AND n.node_type = 'document'
        WHERE dt.topic_id = ${topicId}::uuid ORDER BY dt.confidence DESC, d.filename LIMIT ${limit}::int`,
  );
  return {
    name: topic.name,
    description: topic.description ?? '',
    documents: documents.map((d) => ({ ...d, version: Number(d.version), summary: d.summary ?? '' })),
  };
}
