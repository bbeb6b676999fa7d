import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { NotFoundError } from '#shared/errors.ts';
import { readVersionNodes } from '#shared/index/version-nodes.ts';
import { isMadeUpTitle, proseOf } from '#shared/parse/structure-words.ts';
import { titleFromFilename } from '#shared/parse/title.ts';
import { dictionaryWords } from '#shared/text/dictionary-words.ts';
import type { WeightedText } from '#shared/text/topics.ts';
import type { TopicSource } from './outline.ts';

/** What topics are drawn from: the document's title and summary, its sections, and its text. */
export interface DocumentText extends TopicSource {
  /**
   * Every text with its weight: titles count more than body text (for keyword extraction); a title
   * that is only a file name (`fileNameTitle`) is a hint: its words weigh the phrases the text
   * uses, never make one.
   */
  weighted: WeightedText[];
}

const WEIGHTS = { documentTitle: 3, sectionTitle: 2, summary: 1, body: 1 };

/** Words joined as in an identifier: by `-`, `_`, `.`, `+`, `~` or a lower-case letter before a capital. */
const JOINED = /[\p{L}\p{N}][-_.+~]+[\p{L}\p{N}]|\p{Ll}\p{Lu}/u;

/**
 * A title that is only a file name written as an identifier ("report-final-v2.md" gives
 * "report-final-v2"), as words ("report final v2"): separators and camelCase split. Undefined for
 * a title the document writes, or a file name written as one ("Refund policy.md", "数据平台.md").
 *
 * @example fileNameTitle('refund_policyFinal', 'refund_policyFinal.md') // 'refund policy Final'
 */
export function fileNameTitle(title: string | null, filename: string | null): string | undefined {
  if (!title || !filename || !JOINED.test(title) || title !== titleFromFilename(filename)) return undefined;
  return title
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/[-_.+~]+/g, ' ')
    .trim();
}

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
    filename: string | null;
    description: string | null;
    ocr_text: string | null;
  }>(
    db,
    ref,
    sql`n.node_type, n.depth, n.title, n.content, n.summary, n.metadata->>'kind' AS kind,
      n.metadata->>'description' AS description, n.metadata->>'ocrText' AS ocr_text,
      CASE WHEN n.node_type = 'document'
        THEN (SELECT d.filename FROM documents d WHERE d.id = n.document_id) END AS filename`,
  );
  const root = rows.find((row) => row.node_type === 'document');
  if (!root) throw new NotFoundError(`document ${ref.documentId} has no nodes for version ${ref.version}`);
  const weighted: WeightedText[] = [];
  const push = (text: string | null, weight: number) => {
    if (text?.trim()) weighted.push({ text, weight });
  };
  const sections: DocumentText['sections'] = [];
  // OCR text counts only where the document has no prose of its own (a scan), and only its words.
  const hasProse = rows.some(
    (row) => (row.node_type === 'paragraph' || row.node_type === 'table') && row.content?.trim(),
  );
  for (const row of rows) {
    if (row.node_type === 'document') {
      const title = fileNameTitle(row.title, row.filename);
      if (title) weighted.push({ text: title, weight: WEIGHTS.documentTitle, hint: true });
      else push(row.title, WEIGHTS.documentTitle);
      push(proseOfSummary(row.summary), WEIGHTS.summary);
    } else if (row.node_type === 'section') {
      const title = row.title && !isMadeUpTitle(row.title) ? row.title : null;
      sections.push({ title: title ?? '', summary: row.summary, depth: row.depth });
      push(title, WEIGHTS.sectionTitle);
      push(proseOfSummary(row.summary), WEIGHTS.summary);
    } else if (row.node_type === 'image') {
      push(row.description, WEIGHTS.body);
      if (!hasProse) push(dictionaryWords(row.ocr_text), WEIGHTS.body);
    } else if (row.kind !== 'code') push(proseOf(row.content ?? '', row.kind), WEIGHTS.body);
  }
  return { title: root.title ?? '', summary: root.summary, sections, weighted };
}

/** Offline summaries quote the content: the rows' labels and the mail headers come with it. */
function proseOfSummary(summary: string | null): string | null {
  return summary && proseOf(proseOf(summary, 'rows'), null).replace(/^(?:From|To|Cc|Date|Subject):.*$/gm, '');
}
