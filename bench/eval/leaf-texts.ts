import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '#shared/config/index.ts';
import { type Db, queryRows } from '#shared/db/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { type BeirSet, loadBeirSet } from './beir.ts';
import { keyOf } from './run.ts';

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

/**
 * A set (`<set dir>`) as `npm run eval -- <set> --data <data dir>` ingested it: the set, its queries
 * with text, the runtime on its data folder (`<data dir>/<set>`, or the folder itself) and its
 * current leaves. The caller closes `rt`.
 */
export async function openIngestedSet(
  dir: string,
  data: string,
): Promise<{ set: BeirSet; queries: BeirSet['queries']; rt: Runtime; leaves: LeafText[] }> {
  const set = loadBeirSet(resolve(dir));
  const dataDir = resolve(data);
  const rt = await openRuntime(
    loadConfig({ overrides: { dataDir: dataDir.endsWith(set.name) ? dataDir : `${dataDir}/${set.name}` } }),
  );
  try {
    const idByKey = new Map(set.documents.map((doc) => [keyOf(set.name, doc.id), doc.id]));
    const leaves = await loadLeafTexts(rt.db, (key) => idByKey.get(key) ?? `?${key}`);
    return { set, queries: set.queries.filter((q) => q.text.trim()), rt, leaves };
  } catch (error) {
    await rt.close();
    throw error;
  }
}
