import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition, documentInScope } from '../access/scope.ts';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import type { DocumentStatus } from '../db/schema.ts';
import { ForbiddenError, NotFoundError } from '../errors.ts';
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
  /** The collection it belongs to (shared/access), which decides who may read it. */
  collection: string;
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
  collection: documents.collection,
  currentVersion: documents.currentVersion,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
};

/** Live (not deleted) documents of the readable collections, newest first, with the total for pagination. */
export async function listDocuments(
  db: Db,
  access: AccessScope,
  options: ListOptions,
): Promise<{ items: DocumentSummary[]; total: number }> {
  const conditions: SQL[] = [
    options.status === 'deleted' ? isNotNull(documents.deletedAt) : isNull(documents.deletedAt),
    collectionCondition(access, sql`${documents.collection}`),
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

/** One live document of the readable collections; throws NotFoundError (also for one the asker may not read). */
export async function getDocument(db: Db, access: AccessScope, id: string): Promise<DocumentSummary> {
  const [row] = await db
    .select(summaryColumns)
    .from(documents)
    .where(
      and(
        eq(documents.id, id),
        isNull(documents.deletedAt),
        collectionCondition(access, sql`${documents.collection}`),
      ),
    );
  if (!row) throw new NotFoundError(`No document with id ${id}`);
  return row;
}

/** A document's versions, newest first, with status, hash, size, dates and ingestion stats. */
export async function listVersions(
  db: Db,
  access: AccessScope,
  documentId: string,
): Promise<VersionSummary[]> {
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
    .where(
      and(
        eq(documentVersions.documentId, documentId),
        documentInScope(access, sql`${documentVersions.documentId}`),
      ),
    )
    .orderBy(desc(documentVersions.version));
}

export interface DocumentTopic {
  id: string;
  name: string;
  confidence: number;
}

/** The topics a document is linked to, most confident first. */
export async function listDocumentTopics(
  db: Db,
  access: AccessScope,
  documentId: string,
): Promise<DocumentTopic[]> {
  return db
    .select({ id: topics.id, name: topics.name, confidence: documentTopics.confidence })
    .from(documentTopics)
    .innerJoin(topics, eq(topics.id, documentTopics.topicId))
    .where(
      and(
        eq(documentTopics.documentId, documentId),
        documentInScope(access, sql`${documentTopics.documentId}`),
      ),
    )
    .orderBy(desc(documentTopics.confidence), topics.name);
}

/**
 * Throws NotFoundError unless the asker may read the document, live or deleted, with the message an
 * unknown id gets (so an id in another collection is not confirmed). Reads nothing for `all`.
 */
export async function assertReadable(db: Db, access: AccessScope, documentId: string): Promise<void> {
  if (access.kind === 'all') return;
  const [row] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, documentId), collectionCondition(access, sql`${documents.collection}`)));
  if (!row) throw new NotFoundError(`No document with id ${documentId}`);
}

/** Live documents of the readable collections counted by status, by file type and by collection. */
export interface DocumentCounts {
  byStatus: Record<string, number>;
  byType: Record<string, number>;
  byCollection: Record<string, number>;
}

/** The counts the status summary shows, over the readable collections only (`DocumentCounts`). */
export async function countDocuments(db: Db, access: AccessScope): Promise<DocumentCounts> {
  const rows = await db
    .select({
      status: documents.status,
      fileType: documents.fileType,
      collection: documents.collection,
      n: count(),
    })
    .from(documents)
    .where(and(isNull(documents.deletedAt), collectionCondition(access, sql`${documents.collection}`)))
    .groupBy(documents.status, documents.fileType, documents.collection);
  const counts: DocumentCounts = { byStatus: {}, byType: {}, byCollection: {} };
  for (const row of rows) {
    const n = Number(row.n);
    counts.byStatus[row.status] = (counts.byStatus[row.status] ?? 0) + n;
    counts.byType[row.fileType] = (counts.byType[row.fileType] ?? 0) + n;
    counts.byCollection[row.collection] = (counts.byCollection[row.collection] ?? 0) + n;
  }
  return counts;
}

/**
 * Throws unless the asker may change the document (delete, reindex): NotFoundError when it may not
 * even read it (as for an unknown id), ForbiddenError when it may read but not write its collection.
 * Reads nothing when both scopes are `all`.
 */
export async function assertWritable(
  db: Db,
  read: AccessScope,
  write: AccessScope,
  documentId: string,
): Promise<void> {
  if (read.kind === 'all' && write.kind === 'all') return;
  const [row] = await db
    .select({ collection: documents.collection })
    .from(documents)
    .where(and(eq(documents.id, documentId), collectionCondition(read, sql`${documents.collection}`)));
  if (!row) throw new NotFoundError(`No document with id ${documentId}`);
  if (write.kind !== 'all' && !write.collections.includes(row.collection)) {
    throw new ForbiddenError(`You may read but not change documents of the collection ${row.collection}`);
  }
}
