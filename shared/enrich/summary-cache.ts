import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';

/** The cache key of a summary: a SHA-256 of how it is made and everything it is made from. */
export function summaryKey(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Summaries already written for any version of the document, by key: a section whose input did
 * not change since an earlier version (or an earlier attempt) reuses its summary without a model call.
 */
export async function previousSummaries(db: Db, documentId: string): Promise<Map<string, string>> {
  const rows = await queryRows<{ key: string; summary: string }>(
    db,
    sql`SELECT DISTINCT ON (metadata->>'summaryKey') metadata->>'summaryKey' AS key, summary FROM nodes
        WHERE document_id = ${documentId}::uuid AND node_type IN ('section', 'document')
          AND summary IS NOT NULL AND metadata ? 'summaryKey'
        ORDER BY metadata->>'summaryKey', version DESC`,
  );
  return new Map(rows.map((row) => [row.key, row.summary]));
}
