import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { stampUnlessUnwritten } from '#shared/db/write-clock.ts';
import { classifyTitle, type SectionCategory } from '#shared/parse/structure/category.ts';
import type { SearchFilters } from '#shared/search/types.ts';

/** Where an answer should be looked for (docs/spec.md#routing). */
export interface Route {
  scope: 'document' | 'corpus';
  documentId?: string;
  documentName?: string;
  /** Section categories the question asks about ("results" -> evaluation); a hint, not a filter. */
  categories: SectionCategory[];
  reason: string;
}

/** A live document a question may name: its file name and its title. */
export interface RouteCandidate {
  id: string;
  filename: string;
  title: string | null;
}

/** File names and titles shorter than this are too generic to count as named in a question. */
const MIN_NAME_CHARS = 3;

/** Live documents with a ready version: the ones a question may name. */
const LIVE = sql`d.deleted_at IS NULL AND d.current_version IS NOT NULL`;

/** Every live document's names, per database, with the stamp of the documents they were read at. */
const namesRead = new WeakMap<Db, { stamp: string; candidates: RouteCandidate[] }>();

/**
 * The live documents (within the request's documents, if limited) a route may pick. Every question
 * needs every live document's names: the titles are their current versions' (`document_versions.title`,
 * one join; a version parsed before the title was recorded has its document node read, a random
 * read each: ~0.5 s at 10,000 documents, ~12 s at 50,000). They are kept per database and read again
 * only when a document appears, goes, is renamed or changes its current version, which one small
 * statement over `documents` tells (~20 ms at 10,000; not asked again while an embedded database
 * is not written: `stampUnlessUnwritten`).
 */
export async function routeCandidates(db: Db, filters: SearchFilters): Promise<RouteCandidate[]> {
  const all = await liveNames(db);
  if (!filters.documentIds) return all;
  const within = new Set(filters.documentIds);
  return all.filter((candidate) => within.has(candidate.id));
}

async function liveNames(db: Db): Promise<RouteCandidate[]> {
  // Stamped before the names are read: a change in between makes the next stamp differ.
  const stamp = await stampUnlessUnwritten(db, 'route-names', async () => {
    const [row] = await queryRows<{ stamp: string }>(
      db,
      sql`SELECT count(*)::text || ':' || coalesce(sum(hashtextextended(
            d.id::text || ':' || d.current_version::text || ':' || d.filename, 0)), 0)::text AS stamp
          FROM documents d WHERE ${LIVE}`,
    );
    return row?.stamp ?? '';
  });
  const known = namesRead.get(db);
  if (known?.stamp === stamp) return known.candidates;
  // Paged: every live document's name passes the Data API's 1 MiB result at a few thousand. The
  // node is read only where the version has no title recorded (COALESCE runs its subquery then).
  const candidates = await readPaged<RouteCandidate>(db, {
    columns: sql`c.id, c.filename, c.title`,
    from: sql`(SELECT d.id, d.filename, coalesce(v.title,
          (SELECT n.title FROM nodes n WHERE n.document_id = d.id AND n.version = d.current_version
            AND n.ordinal = 0 AND n.node_type = 'document' LIMIT 1)) AS title
        FROM documents d JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
        WHERE ${LIVE}) c`,
    key: sql`c.id`,
    keyType: 'uuid',
    rowBytes: sql`64 + octet_length(c.filename) + coalesce(octet_length(c.title), 0)`,
  });
  namesRead.set(db, { stamp, candidates });
  return candidates;
}

/** The route of a request limited to exactly one document, whatever the question says. */
function singleDocumentRoute(
  candidates: RouteCandidate[],
  filters: SearchFilters,
  categories: SectionCategory[],
): Route | undefined {
  const [only] = candidates;
  if (filters.documentIds?.length !== 1 || !only) return undefined;
  return {
    scope: 'document',
    documentId: only.id,
    documentName: only.filename,
    categories,
    reason: 'the question is limited to this document',
  };
}

/**
 * The candidate whose name (file name with or without extension, or title) `text` contains; the
 * longest name found wins. Names shorter than three characters never count.
 */
export function findNamedDocument(
  candidates: RouteCandidate[],
  text: string,
): { candidate: RouteCandidate; name: string } | undefined {
  const haystack = text.toLowerCase();
  let best: { candidate: RouteCandidate; name: string } | undefined;
  for (const candidate of candidates) {
    for (const name of [
      candidate.filename.replace(/\.[^.]+$/, ''),
      candidate.filename,
      candidate.title ?? '',
    ]) {
      const lower = name.trim().toLowerCase();
      if ([...lower].length < MIN_NAME_CHARS || !haystack.includes(lower)) continue;
      if (!best || lower.length > best.name.length) best = { candidate, name: lower };
    }
  }
  return best;
}

/** Section categories the question's words point at, by the rules for section titles. */
function questionCategories(question: string): SectionCategory[] {
  const category = classifyTitle(question);
  return category && category !== 'other' ? [category] : [];
}

/**
 * Routes a question by rules (the offline router, and the fallback of the model's): one document
 * when the request is limited to exactly one, or when the question names a document (its file name
 * without extension, or its title; the longest name found wins); otherwise the corpus. Section
 * categories come from the question's words by the same rules as section titles.
 *
 * @example routeByRules('What are the results in plan.docx?', candidates, {}) // { scope: 'document', documentName: 'plan.docx', categories: ['evaluation'], ... }
 */
export function routeByRules(question: string, candidates: RouteCandidate[], filters: SearchFilters): Route {
  const categories = questionCategories(question);
  const single = singleDocumentRoute(candidates, filters, categories);
  if (single) return single;
  const named = findNamedDocument(candidates, question);
  if (named) {
    return {
      scope: 'document',
      documentId: named.candidate.id,
      documentName: named.candidate.filename,
      categories,
      reason: `the question names "${named.name}"`,
    };
  }
  return { scope: 'corpus', categories, reason: 'the question names no single document' };
}

/** `routeByRules` over the database's live documents. */
export async function routeQuestion(db: Db, question: string, filters: SearchFilters): Promise<Route> {
  return routeByRules(question, await routeCandidates(db, filters), filters);
}
