import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { PATH_SEPARATOR } from '#shared/index/flatten.ts';
import { readVersionNodes } from '#shared/index/version-nodes.ts';

/** A paragraph with where it sits, for its contextual sentence. */
export interface ParagraphRow {
  id: string;
  sectionId: string;
  path: string;
  content: string;
  /** Set when an earlier attempt already prepended a context to this paragraph's index text. */
  context: string | null;
}

/** A version's title and prose paragraphs (code blocks left out) with their section paths. */
export async function loadParagraphs(
  db: Db,
  ref: { documentId: string; version: number },
): Promise<{ title: string; paragraphs: ParagraphRow[] }> {
  const rows = await readVersionNodes<{
    id: string;
    parent_id: string | null;
    node_type: string;
    title: string | null;
    content: string | null;
    kind: string | null;
    context: string | null;
  }>(
    db,
    ref,
    sql`n.id, n.parent_id, n.node_type, n.title, n.content, n.metadata->>'kind' AS kind,
        n.metadata->>'context' AS context`,
  );
  const paths = new Map<string, string[]>();
  let title = '';
  const paragraphs: ParagraphRow[] = [];
  for (const row of rows) {
    const parentPath = row.parent_id ? (paths.get(row.parent_id) ?? []) : [];
    if (row.node_type === 'document') {
      title = row.title ?? '';
      paths.set(row.id, []);
    } else if (row.node_type === 'section') paths.set(row.id, [...parentPath, row.title ?? '']);
    else if (row.node_type === 'paragraph' && row.kind !== 'code' && row.content?.trim()) {
      paragraphs.push({
        id: row.id,
        sectionId: row.parent_id ?? '',
        path: parentPath.join(PATH_SEPARATOR),
        content: row.content,
        context: row.context,
      });
    }
  }
  return { title, paragraphs };
}
