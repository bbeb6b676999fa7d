import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';

/** Bumped when the context prompts change, so contexts are not reused across methods. */
const METHOD_VERSION = 1;

/**
 * The cache key of a paragraph's context: the document title, the paragraph's section path and its
 * text. The summary call of its section and the batched context call share it, so a context made by
 * either is reused by both in a later version.
 */
export function contextKey(documentTitle: string, path: string, content: string): string {
  return createHash('sha256')
    .update(JSON.stringify([METHOD_VERSION, documentTitle, path, content]))
    .digest('hex');
}

/** Contexts already written for any version of the document, by key. */
export async function previousContexts(db: Db, documentId: string): Promise<Map<string, string>> {
  const rows = await queryRows<{ key: string; context: string }>(
    db,
    sql`SELECT metadata->>'contextKey' AS key, metadata->>'context' AS context FROM nodes
        WHERE document_id = ${documentId}::uuid AND node_type = 'paragraph' AND metadata ? 'contextKey'`,
  );
  return new Map(rows.map((row) => [row.key, row.context]));
}
