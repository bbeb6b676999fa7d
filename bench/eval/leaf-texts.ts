import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/index.ts';

/** One searchable leaf of an ingested set, split into what the index weighs apart. */
export interface LeafText {
  id: string;
  /** The corpus id of its document. */
  docId: string;
  /** The document title and section path (tsvector weight A). */
  path: string;
  /** The leaf's own text (weight B). */
  content: string;
  /** A contextual sentence added at enrichment (weight C), '' when none. */
  context: string;
}

/**
 * The current leaves of a set ingested by `npm run eval -- <set> --data <dir>`, with the texts
 * `flattenTree` indexed them by: the index text is `[context\n]path\ncontent`.
 */
export async function loadLeafTexts(db: Db, docIdOfKey: (key: string) => string): Promise<LeafText[]> {
  const rows = await queryRows<{
    id: string;
    key: string;
    content: string | null;
    index_text: string | null;
    context: string | null;
  }>(
    db,
    sql`SELECT n.id, d.key, n.content, n.index_text, n.metadata->>'context' AS context
        FROM nodes n JOIN documents d ON d.id = n.document_id AND n.version = d.current_version
        WHERE d.deleted_at IS NULL AND n.node_type IN ('paragraph', 'table', 'image')`,
  );
  return rows.map((row) => {
    const content = row.content ?? '';
    const context = row.context ?? '';
    let rest = row.index_text ?? '';
    if (context && rest.startsWith(`${context}\n`)) rest = rest.slice(context.length + 1);
    const path = rest.endsWith(content) ? rest.slice(0, rest.length - content.length).trimEnd() : '';
    return { id: row.id, docId: docIdOfKey(row.key), path, content, context };
  });
}
