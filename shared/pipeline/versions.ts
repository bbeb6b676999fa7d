import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Db, schema } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';
import type { VersionRef } from './contract.ts';

const { documents, documentVersions } = schema;

export type VersionRow = typeof documentVersions.$inferSelect;

/** One version row; `NotFoundError` when it does not exist (e.g. its document was deleted). */
export async function getVersion(db: Db, ref: VersionRef): Promise<VersionRow> {
  const [row] = await db
    .select()
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, ref.documentId), eq(documentVersions.version, ref.version)));
  if (!row) throw new NotFoundError(`No version ${ref.version} of document ${ref.documentId}`);
  return row;
}

/**
 * Records that a step starts on a version: the version's `step` and the document's status detail,
 * so a UI can show "processing: parse".
 */
export async function startStep(db: Db, ref: VersionRef, step: string): Promise<void> {
  const now = new Date();
  await db
    .update(documentVersions)
    .set({ step, updatedAt: now })
    .where(and(eq(documentVersions.documentId, ref.documentId), eq(documentVersions.version, ref.version)));
  await db
    .update(documents)
    .set({ status: 'processing', statusDetail: step, updatedAt: now })
    .where(and(eq(documents.id, ref.documentId), isNull(documents.deletedAt)));
}

/** Merges numeric counters into a version's `stats` (jsonb `||`, so concurrent keys do not clobber). */
export async function mergeVersionStats(
  db: Db,
  ref: VersionRef,
  stats: Record<string, number>,
  extra: Partial<Pick<VersionRow, 'markdownKey' | 'fileType'>> = {},
): Promise<void> {
  await db
    .update(documentVersions)
    .set({
      ...extra,
      stats: sql`${documentVersions.stats} || ${JSON.stringify(stats)}::jsonb`,
      updatedAt: new Date(),
    })
    .where(and(eq(documentVersions.documentId, ref.documentId), eq(documentVersions.version, ref.version)));
}
