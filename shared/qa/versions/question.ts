import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { search } from '#shared/search/index.ts';
import { segment } from '#shared/text/segment.ts';
import type { QaDeps } from '../deps.ts';
import type { AskRequest } from '../request.ts';

/** A question about what changed between versions of a document. */
export interface VersionQuestion {
  /** Versions the question names ("第二版", "version 3", "v1 and v2"), lowest first. */
  versions: number[];
}

const CHANGE_PATTERNS = [
  /\bwhat(?:'s|\s+has|\s+have|\s+was|\s+were)?\s+changed\b/i,
  /\bwhat\s+(?:is|are)\s+(?:new|different)\b/i,
  /\bhow\s+(?:did|has|have|does)\b.*\bchange[ds]?\b/i,
  /\bchanges?\s+(?:in|to|between|since|from)\b/i,
  /\b(?:differences?|diff)\s+between\b/i,
  /\bbetween\s+(?:the\s+)?(?:two\s+)?versions\b/i,
  /改了(?:什么|哪些|些什么)|修改了(?:什么|哪些)|改动|变化|变更|有(?:什么|哪些)不同|区别|差异/,
];

const CHINESE_NUMBERS: Record<string, number> = {
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
};

/**
 * Recognises "what changed" questions: "what changed in the refund policy?", "X 的第二版改了什么",
 * "how did the refund window change between versions". Undefined for any other question.
 *
 * @example versionQuestion('X 的第二版改了什么') // { versions: [2] }
 */
export function versionQuestion(question: string): VersionQuestion | undefined {
  if (!CHANGE_PATTERNS.some((pattern) => pattern.test(question))) return undefined;
  const versions = new Set<number>();
  for (const match of question.matchAll(/第\s*([一二两三四五六七八九十\d]+)\s*(?:版|个版本)/g)) {
    const n = Number(match[1]) || CHINESE_NUMBERS[match[1] ?? ''];
    if (n) versions.add(n);
  }
  for (const match of question.matchAll(/\b(?:version|v)\s*(\d{1,4})\b/gi)) versions.add(Number(match[1]));
  for (const match of question.matchAll(/\bversions?\s+(\d{1,4})\s+(?:and|to|vs\.?)\s+(\d{1,4})\b/gi)) {
    versions.add(Number(match[1]));
    versions.add(Number(match[2]));
  }
  return { versions: [...versions].sort((a, b) => a - b) };
}

/** A live document with at least two ready versions: one a "what changed" question can be about. */
export interface VersionedDocument {
  id: string;
  key: string;
  filename: string;
  title: string;
}

/**
 * The document a "what changed" question is about, among live documents with two ready versions or
 * more (within the request's documents): the one whose name or title shares the most words with the
 * question, else the document of the best search hit, else the only one there is.
 */
export async function comparedDocument(
  deps: QaDeps,
  request: AskRequest,
): Promise<VersionedDocument | undefined> {
  const candidates = (await versionedDocuments(deps.db)).filter(
    (doc) => !request.document_ids || request.document_ids.includes(doc.id),
  );
  if (candidates.length <= 1) return candidates[0];
  const asked = new Set(segment(request.question));
  let best: VersionedDocument | undefined;
  let bestScore = 0;
  for (const doc of candidates) {
    const words = new Set(
      segment(`${doc.filename.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ')} ${doc.title}`),
    );
    const score = [...words].filter((word) => asked.has(word)).length;
    if (score > bestScore) {
      best = doc;
      bestScore = score;
    }
  }
  if (best) return best;
  const hits = await search(deps, {
    query: request.question,
    kind: 'fulltext',
    limit: 5,
    filters: { documentIds: candidates.map((doc) => doc.id) },
  });
  return candidates.find((doc) => doc.id === hits[0]?.documentId);
}

async function versionedDocuments(db: Db): Promise<VersionedDocument[]> {
  // Paged: it can be every live document.
  return readPaged<VersionedDocument>(db, {
    columns: sql`d.id, d.key, d.filename,
          coalesce((SELECT n.title FROM nodes n WHERE n.document_id = d.id AND n.version = d.current_version
                    AND n.node_type = 'document' LIMIT 1), d.filename) AS title`,
    from: sql`documents d`,
    where: sql`d.deleted_at IS NULL
          AND (SELECT count(*) FROM document_versions v WHERE v.document_id = d.id AND v.status = 'ready') >= 2`,
    key: sql`d.id`,
    keyType: 'uuid',
    rowBytes: sql`320 + octet_length(d.key) + 2 * octet_length(d.filename)`,
  });
}

/**
 * The route rule of `auto` and `agent`: a "what changed" question about a document with several
 * versions goes to the version comparison. Undefined for any other question, and for questions
 * pinned to one version.
 */
export async function versionsTarget(
  deps: QaDeps,
  request: AskRequest,
): Promise<{ document: VersionedDocument; question: VersionQuestion } | undefined> {
  if (request.version !== undefined) return undefined;
  const question = versionQuestion(request.question);
  if (!question) return undefined;
  const document = await comparedDocument(deps, request);
  return document ? { document, question } : undefined;
}
