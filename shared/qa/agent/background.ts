import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { stripDelimiters } from '#shared/llm/prompt-files.ts';
import { attribute, clip } from './tools/format.ts';

const BACKGROUND_CHARS = 500;

/**
 * A document's background for the agent (docs/spec.md#background): the first leaves of
 * its abstract or introduction sections, else the document summary, at most 500 characters; empty
 * when it has neither.
 */
export async function documentBackground(db: Db, documentId: string, version: number): Promise<string> {
  const rows = await queryRows<{ content: string | null; kind: string }>(
    db,
    sql`(SELECT n.content, 'intro' AS kind FROM nodes n
          WHERE n.document_id = ${documentId}::uuid AND n.version = ${version}::int
            AND n.node_type = 'paragraph' AND n.category IN ('abstract', 'introduction')
          ORDER BY n.ordinal LIMIT 3)
        UNION ALL
        (SELECT n.summary AS content, 'summary' AS kind FROM nodes n
          WHERE n.document_id = ${documentId}::uuid AND n.version = ${version}::int AND n.node_type = 'document'
          LIMIT 1)`,
  );
  const intro = rows.filter((r) => r.kind === 'intro' && r.content).map((r) => r.content);
  const text = intro.length > 0 ? intro.join('\n') : (rows.find((r) => r.kind === 'summary')?.content ?? '');
  return clip(stripDelimiters(text).trim(), BACKGROUND_CHARS);
}

/** Background blocks for the documents seen for the first time, marking each as seen. */
export async function newBackgrounds(
  db: Db,
  docs: { documentId: string; documentName: string; version: number }[],
  seen: Set<string>,
): Promise<string> {
  const blocks: string[] = [];
  for (const doc of docs) {
    if (seen.has(doc.documentId)) continue;
    seen.add(doc.documentId);
    const text = await documentBackground(db, doc.documentId, doc.version);
    if (text) {
      blocks.push(
        `<document kind="background" document_id="${doc.documentId}" name="${attribute(doc.documentName)}">\n${text}\n</document>`,
      );
    }
  }
  return blocks.join('\n');
}
