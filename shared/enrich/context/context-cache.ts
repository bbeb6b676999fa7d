import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';

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
  // Paged: a long document's contexts (every version's) pass the Data API's 1 MiB result.
  const rows = await readPaged<{ key: string; context: string }>(db, {
    columns: sql`c.key, c.context`,
    from: sql`(SELECT DISTINCT ON (metadata->>'contextKey') metadata->>'contextKey' AS key,
          metadata->>'context' AS context FROM nodes
        WHERE document_id = ${documentId}::uuid AND node_type = 'paragraph' AND metadata ? 'contextKey'
        ORDER BY metadata->>'contextKey', version DESC) c`,
    key: sql`c.key`,
    keyType: 'text',
    rowBytes: sql`128 + coalesce(octet_length(c.context), 0)`,
  });
  return new Map(rows.map((row) => [row.key, row.context]));
}
