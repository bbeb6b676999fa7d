import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { NotFoundError } from '#shared/errors.ts';
import { readVersionNodes } from '#shared/index/version-nodes.ts';
import type { WeightedText } from '#shared/llm/offline/topics.ts';
import type { TopicSource } from './outline.ts';

/** What topics are drawn from: the document's title and summary, its sections, and its text. */
export interface DocumentText extends TopicSource {
  /** Every text with its weight: titles count more than body text (for keyword extraction). */
  weighted: WeightedText[];
}

const WEIGHTS = { documentTitle: 3, sectionTitle: 2, summary: 1, body: 1 };

/** Reads one version's texts for topic extraction (code blocks left out: identifiers are not topics). */
export async function loadDocumentText(
  db: Db,
  ref: { documentId: string; version: number },
): Promise<DocumentText> {
  const rows = await readVersionNodes<{
    node_type: string;
    depth: number;
    title: string | null;
    content: string | null;
    summary: string | null;
    kind: string | null;
  }>(db, ref, sql`n.node_type, n.depth, n.title, n.content, n.summary, n.metadata->>'kind' AS kind`);
  const root = rows.find((row) => row.node_type === 'document');
  if (!root) throw new NotFoundError(`document ${ref.documentId} has no nodes for version ${ref.version}`);
  const weighted: WeightedText[] = [];
  const push = (text: string | null, weight: number) => {
    if (text?.trim()) weighted.push({ text, weight });
  };
  const sections: DocumentText['sections'] = [];
  for (const row of rows) {
    if (row.node_type === 'document') {
      push(row.title, WEIGHTS.documentTitle);
      push(row.summary, WEIGHTS.summary);
    } else if (row.node_type === 'section') {
      sections.push({ title: row.title ?? '', summary: row.summary, depth: row.depth });
      push(row.title, WEIGHTS.sectionTitle);
      push(row.summary, WEIGHTS.summary);
    } else if (row.kind !== 'code') push(row.content, WEIGHTS.body);
  }
  return { title: root.title ?? '', summary: root.summary, sections, weighted };
}
