import { and, eq, sql } from 'drizzle-orm';
import { type Db, queryRows, schema } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';

const { documentVersions } = schema;

export type VersionRow = typeof documentVersions.$inferSelect;
/** One version of one document (the pipeline's `VersionRef`). */
type VersionRef = Pick<VersionRow, 'documentId' | 'version'>;

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
 * so a UI can show "processing: parse". Returns the document's current version as it was (null:
 * none yet, or the document is deleted), and what the Parse step reads first: the version's object
 * key (null: no such version) and the document's file name.
 */
export async function startStep(
  db: Db,
  ref: VersionRef,
  step: string,
): Promise<{ currentVersion: number | null; objectKey: string | null; filename: string | null }> {
  // One statement (data-modifying CTEs always run): steps start often, round trips add up.
  const [row] = await queryRows<{
    current_version: number | null;
    object_key: string | null;
    filename: string | null;
  }>(
    db,
    sql`
    WITH v AS (
      UPDATE document_versions SET step = ${step}, updated_at = now()
      WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int
      RETURNING object_key
    ), d AS (
      UPDATE documents SET status = 'processing', status_detail = ${step}, updated_at = now()
      WHERE id = ${ref.documentId}::uuid AND deleted_at IS NULL
      RETURNING current_version
    )
    SELECT (SELECT current_version FROM d) AS current_version, (SELECT object_key FROM v) AS object_key,
      (SELECT filename FROM documents WHERE id = ${ref.documentId}::uuid) AS filename`,
  );
  return {
    currentVersion: row?.current_version ?? null,
    objectKey: row?.object_key ?? null,
    filename: row?.filename ?? null,
  };
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
