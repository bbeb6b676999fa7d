import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import type { DocumentStatus } from '../db/schema.ts';
import { NotFoundError } from '../errors.ts';
import type { DocumentActivity } from './activity.ts';

const { documents, documentVersions, documentTopics, topics } = schema;

export interface DocumentSummary {
  id: string;
  key: string;
  filename: string;
  fileType: string;
  status: DocumentStatus;
  statusDetail: string | null;
  /** The kind of the last failure (shared/pipeline/failure-reason.ts#failureCode), null when none was recorded. */
  failureCode: string | null;
  /** Queued or processing only, where the process can tell (see activity.ts): running, waiting or stopped. */
  activity?: DocumentActivity;
  currentVersion: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface VersionSummary {
  version: number;
  status: string;
  step: string | null;
  error: string | null;
  /** The kind of `error` (failureCode). */
  errorCode: string | null;
  fileHash: string;
  fileSize: number;
  fileType: string;
  stats: Record<string, number>;
  /** What a reader should know about this version, in words (parse warnings, text left out by OCR). */
  warnings: string[];
  /** What changed since the previous ready version (null for the first). */
  changeSummary: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export interface ListOptions {
  limit: number;
  offset: number;
  /** `deleted` lists deleted documents (kept with their history); any other lists live ones. */
  status?: DocumentStatus;
  /** Matches the key or filename, case-insensitively. */
  q?: string;
  /** Alias of `q`, the name filter of docs/spec.md#http-api. */
  name?: string;
  /** The detected file type (`md`, `docx`, `pdf`, ...). */
  type?: string;
  /** Only documents linked to this topic. */
  topicId?: string;
}

const summaryColumns = {
  id: documents.id,
  key: documents.key,
  filename: documents.filename,
  fileType: documents.fileType,
  status: documents.status,
  statusDetail: documents.statusDetail,
  failureCode: documents.failureCode,
  currentVersion: documents.currentVersion,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
};

/** Live (not deleted) documents, newest first, with the total for pagination. */
export async function listDocuments(
  db: Db,
  options: ListOptions,
): Promise<{ items: DocumentSummary[]; total: number }> {
  const conditions: SQL[] = [
    options.status === 'deleted' ? isNotNull(documents.deletedAt) : isNull(documents.deletedAt),
  ];
  if (options.status && options.status !== 'deleted') conditions.push(eq(documents.status, options.status));
  for (const text of [options.q, options.name]) {
    if (!text) continue;
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(documents.key, pattern), ilike(documents.filename, pattern)) as SQL);
  }
  if (options.type) conditions.push(eq(documents.fileType, options.type));
  if (options.topicId) {
    conditions.push(
      inArray(
        documents.id,
        db
          .select({ id: documentTopics.documentId })
          .from(documentTopics)
          .where(eq(documentTopics.topicId, options.topicId)),
      ),
    );
  }
  const where = and(...conditions);
  const items = await db
    .select(summaryColumns)
    .from(documents)
    .where(where)
    .orderBy(desc(documents.updatedAt), documents.key)
    .limit(options.limit)
    .offset(options.offset);
  const [total] = await db.select({ n: count() }).from(documents).where(where);
  return { items, total: Number(total?.n ?? 0) };
}

/** One live document; throws NotFoundError. */
export async function getDocument(db: Db, id: string): Promise<DocumentSummary> {
  const [row] = await db
    .select(summaryColumns)
    .from(documents)
    .where(and(eq(documents.id, id), isNull(documents.deletedAt)));
  if (!row) throw new NotFoundError(`No document with id ${id}`);
  return row;
}

/** A document's versions, newest first, with status, hash, size, dates and ingestion stats. */
export async function listVersions(db: Db, documentId: string): Promise<VersionSummary[]> {
  return db
    .select({
      version: documentVersions.version,
      status: documentVersions.status,
      step: documentVersions.step,
      error: documentVersions.error,
      errorCode: documentVersions.errorCode,
      fileHash: documentVersions.fileHash,
      fileSize: documentVersions.fileSize,
      fileType: documentVersions.fileType,
      stats: documentVersions.stats,
      warnings: documentVersions.warnings,
      changeSummary: documentVersions.changeSummary,
      createdAt: documentVersions.createdAt,
      completedAt: documentVersions.completedAt,
    })
    .from(documentVersions)
    .where(eq(documentVersions.documentId, documentId))
    .orderBy(desc(documentVersions.version));
}

export interface DocumentTopic {
  id: string;
  name: string;
  confidence: number;
}

/** The topics a document is linked to, most confident first. */
export async function listDocumentTopics(db: Db, documentId: string): Promise<DocumentTopic[]> {
  return db
    .select({ id: topics.id, name: topics.name, confidence: documentTopics.confidence })
    .from(documentTopics)
    .innerJoin(topics, eq(topics.id, documentTopics.topicId))
    .where(eq(documentTopics.documentId, documentId))
    .orderBy(desc(documentTopics.confidence), topics.name);
}
