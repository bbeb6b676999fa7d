import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';

/** The cache key of a summary: a SHA-256 of how it is made and everything it is made from. */
export function summaryKey(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Summaries written for earlier versions of the document, by key (the latest version's first): a
 * section whose input did not change since an earlier version reuses its summary without a model
 * call. None for a first version (no query); an earlier attempt's are read with the tree
 * (`loadSummaryTree`).
 */
export async function previousSummaries(
  db: Db,
  ref: { documentId: string; version: number },
): Promise<Map<string, string>> {
  if (ref.version <= 1) return new Map();
  // Paged: a long document's summaries pass the Data API's 1 MiB result.
  const rows = await readPaged<{ key: string; summary: string }>(db, {
    columns: sql`s.key, s.summary`,
    from: sql`(SELECT DISTINCT ON (metadata->>'summaryKey') metadata->>'summaryKey' AS key, summary FROM nodes
        WHERE document_id = ${ref.documentId}::uuid AND version < ${ref.version}::int
          AND node_type IN ('section', 'document') AND summary IS NOT NULL AND metadata ? 'summaryKey'
        ORDER BY metadata->>'summaryKey', version DESC) s`,
    key: sql`s.key`,
    keyType: 'text',
    rowBytes: sql`128 + octet_length(s.summary)`,
  });
  return new Map(rows.map((row) => [row.key, row.summary]));
}
