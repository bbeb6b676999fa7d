import { and, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import type { DocumentStatus } from '../db/schema.ts';
import { NotFoundError } from '../errors.ts';

const { documents, documentVersions } = schema;

export interface DocumentSummary {
  id: string;
  key: string;
  filename: string;
  fileType: string;
  status: DocumentStatus;
  statusDetail: string | null;
  currentVersion: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface VersionSummary {
  version: number;
  status: string;
  step: string | null;
  error: string | null;
  fileHash: string;
  fileSize: number;
  fileType: string;
  stats: Record<string, number>;
  createdAt: Date;
  completedAt: Date | null;
}

export interface ListOptions {
  limit: number;
  offset: number;
  status?: DocumentStatus;
  /** Matches the key or filename, case-insensitively. */
  q?: string;
}

const summaryColumns = {
  id: documents.id,
  key: documents.key,
  filename: documents.filename,
  fileType: documents.fileType,
  status: documents.status,
  statusDetail: documents.statusDetail,
  currentVersion: documents.currentVersion,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
};

/** Live (not deleted) documents, newest first, with the total for pagination. */
export async function listDocuments(
  db: Db,
  options: ListOptions,
): Promise<{ items: DocumentSummary[]; total: number }> {
  const conditions: SQL[] = [isNull(documents.deletedAt)];
  if (options.status) conditions.push(eq(documents.status, options.status));
  if (options.q) {
    const pattern = `%${options.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(documents.key, pattern), ilike(documents.filename, pattern)) as SQL);
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
      fileHash: documentVersions.fileHash,
      fileSize: documentVersions.fileSize,
      fileType: documentVersions.fileType,
      stats: documentVersions.stats,
      createdAt: documentVersions.createdAt,
      completedAt: documentVersions.completedAt,
    })
    .from(documentVersions)
    .where(eq(documentVersions.documentId, documentId))
    .orderBy(desc(documentVersions.version));
}
