import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows, schema } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';
import { pgArray } from '../search/scope.ts';

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
 * none yet, or the document is deleted).
 */
export async function startStep(
  db: Db,
  ref: VersionRef,
  step: string,
): Promise<{ currentVersion: number | null }> {
  // One statement (a data-modifying CTE always runs): steps start often, round trips add up.
  const [row] = await queryRows<{ current_version: number | null }>(
    db,
    sql`WITH v AS (${stepOnVersion(ref, step)}) ${stepOnDocument(ref, step)} RETURNING current_version`,
  );
  return { currentVersion: row?.current_version ?? null };
}

/** What `startStep` writes, for a step that sends it with its first read (`withWrites`). */
export function startStepWrites(ref: VersionRef, step: string): SQL[] {
  return [stepOnVersion(ref, step), stepOnDocument(ref, step)];
}

function stepOnVersion(ref: VersionRef, step: string): SQL {
  return sql`UPDATE document_versions SET step = ${step}, updated_at = now()
    WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`;
}

function stepOnDocument(ref: VersionRef, step: string): SQL {
  return sql`UPDATE documents SET status = 'processing', status_detail = ${step}, updated_at = now()
    WHERE id = ${ref.documentId}::uuid AND deleted_at IS NULL`;
}

/** Merges numeric counters into a version's `stats` (jsonb `||`, so concurrent keys do not clobber). */
export async function mergeVersionStats(
  db: Db,
  ref: VersionRef,
  stats: Record<string, number>,
  extra: VersionExtra = {},
): Promise<void> {
  await db.execute(versionStatsUpdate(ref, stats, extra));
}

type VersionExtra = Partial<
  Pick<VersionRow, 'markdownKey' | 'fileType' | 'warnings' | 'analyzerVersion' | 'title'>
>;

/** The UPDATE of `mergeVersionStats`, for a step that sends it with another statement (`withWrites`). */
export function versionStatsUpdate(
  ref: VersionRef,
  stats: Record<string, number>,
  extra: VersionExtra = {},
): SQL {
  const sets = [sql`stats = stats || ${JSON.stringify(stats)}::jsonb`, sql`updated_at = now()`];
  if (extra.markdownKey !== undefined) sets.push(sql`markdown_key = ${extra.markdownKey}`);
  if (extra.fileType !== undefined) sets.push(sql`file_type = ${extra.fileType}`);
  if (extra.title !== undefined) sets.push(sql`title = ${extra.title}`);
  if (extra.warnings !== undefined) sets.push(sql`warnings = ${pgArray(extra.warnings)}::text[]`);
  if (extra.analyzerVersion != null) sets.push(sql`analyzer_version = ${extra.analyzerVersion}::int`);
  return sql`UPDATE document_versions SET ${sql.join(sets, sql`, `)}
    WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`;
}
