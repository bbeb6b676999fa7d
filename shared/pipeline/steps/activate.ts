import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { schema } from '../../db/index.ts';
import { parseStepInput, type VersionRef, versionRefSchema } from '../contract.ts';
import { settleDocumentStatus } from '../documents.ts';
import type { PipelineDeps } from '../types.ts';
import { getVersion, startStep } from '../versions.ts';

const { documents, documentVersions } = schema;

/**
 * Activate, in one transaction: the version becomes `ready` (completion time and duration in its
 * stats) and the document's current version, unless a newer version is already current (executions
 * may finish out of order). Older versions stay queryable by number.
 *
 * @example await activate({ documentId, version: 2 }, deps) // { documentId, version: 2, outcome: 'ready' }
 */
export async function activate(raw: unknown, deps: PipelineDeps): Promise<VersionRef & { outcome: 'ready' }> {
  const ref = parseStepInput(versionRefSchema, raw, 'Activate');
  await startStep(deps.db, ref, 'activate');
  const { createdAt } = await getVersion(deps.db, ref);
  await deps.db.transaction(async (tx) => {
    const now = new Date();
    const durationMs = Math.max(0, now.getTime() - createdAt.getTime());
    await tx
      .update(documentVersions)
      .set({
        status: 'ready',
        error: null,
        completedAt: now,
        updatedAt: now,
        stats: sql`${documentVersions.stats} || ${JSON.stringify({ durationMs })}::jsonb`,
      })
      .where(and(eq(documentVersions.documentId, ref.documentId), eq(documentVersions.version, ref.version)));
    await tx
      .update(documents)
      .set({ currentVersion: ref.version, updatedAt: now })
      .where(
        and(
          eq(documents.id, ref.documentId),
          isNull(documents.deletedAt),
          or(isNull(documents.currentVersion), sql`${documents.currentVersion} < ${ref.version}`),
        ),
      );
    await settleDocumentStatus(tx, ref.documentId);
  });
  return { ...ref, outcome: 'ready' };
}
