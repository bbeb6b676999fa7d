import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { classifyTitle, type SectionCategory } from '#shared/parse/structure/category.ts';
import { pgArray } from '#shared/search/scope.ts';
import type { SearchFilters } from '#shared/search/types.ts';

/** Where an answer should be looked for (seed 002 §3.3 intent routing). */
export interface Route {
  scope: 'document' | 'corpus';
  documentId?: string;
  documentName?: string;
  /** Section categories the question asks about ("results" -> evaluation); a hint, not a filter. */
  categories: SectionCategory[];
  reason: string;
}

/** File names and titles shorter than this are too generic to count as named in a question. */
const MIN_NAME_CHARS = 3;

/**
 * Routes a question to one document or to the corpus: one document when the request is limited to
 * exactly one, or when the question names a document (its file name without extension, or its
 * title; the longest name found wins); otherwise the corpus. Section categories come from the
 * question's words by the same rules as section titles (method, evaluation, introduction, ...).
 *
 * @example await routeQuestion(db, 'What are the results in plan.docx?', {}) // { scope: 'document', documentName: 'plan.docx', categories: ['evaluation'], ... }
 */
export async function routeQuestion(db: Db, question: string, filters: SearchFilters): Promise<Route> {
  const category = classifyTitle(question);
  const categories = category && category !== 'other' ? [category] : [];
  const within = filters.documentIds ? sql`AND d.id = ANY(${pgArray(filters.documentIds)}::uuid[])` : sql``;
  const rows = await queryRows<{ id: string; filename: string; title: string | null }>(
    db,
    sql`SELECT d.id, d.filename, n.title FROM documents d
        LEFT JOIN nodes n ON n.document_id = d.id AND n.version = d.current_version AND n.node_type = 'document'
        WHERE d.deleted_at IS NULL AND d.current_version IS NOT NULL ${within}`,
  );
  if (filters.documentIds?.length === 1 && rows[0]) {
    return {
      scope: 'document',
      documentId: rows[0].id,
      documentName: rows[0].filename,
      categories,
      reason: 'the question is limited to this document',
    };
  }
  const text = question.toLowerCase();
  let best: { id: string; filename: string; name: string } | undefined;
  for (const row of rows) {
    for (const name of [row.filename.replace(/\.[^.]+$/, ''), row.filename, row.title ?? '']) {
      const lower = name.trim().toLowerCase();
      if ([...lower].length < MIN_NAME_CHARS || !text.includes(lower)) continue;
      if (!best || lower.length > best.name.length)
        best = { id: row.id, filename: row.filename, name: lower };
    }
  }
  if (best) {
    return {
      scope: 'document',
      documentId: best.id,
      documentName: best.filename,
      categories,
      reason: `the question names "${best.name}"`,
    };
  }
  return { scope: 'corpus', categories, reason: 'the question names no single document' };
}
