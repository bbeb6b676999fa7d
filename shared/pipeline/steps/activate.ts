import { sql } from 'drizzle-orm';
import { parseStepInput, type VersionRef, versionRefSchema } from '../contract.ts';
import { settleDocumentStatus } from '../documents.ts';
import type { PipelineDeps } from '../types.ts';

/**
 * Activate, in one transaction: the version becomes `ready` (completion time and duration in its
 * stats) and the document's current version, unless a newer version is already current (executions
 * may finish out of order). Older versions stay queryable by number.
 *
 * @example await activate({ documentId, version: 2 }, deps) // { documentId, version: 2, outcome: 'ready' }
 */
export async function activate(raw: unknown, deps: PipelineDeps): Promise<VersionRef & { outcome: 'ready' }> {
  const ref = parseStepInput(versionRefSchema, raw, 'Activate');
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`
      UPDATE document_versions SET status = 'ready', step = 'activate', error = NULL,
        completed_at = now(), updated_at = now(),
        stats = stats || jsonb_build_object('durationMs',
          greatest(0, round(extract(epoch FROM clock_timestamp() - created_at) * 1000))::bigint)
      WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`);
    await tx.execute(sql`
      UPDATE documents SET current_version = ${ref.version}::int, updated_at = now()
      WHERE id = ${ref.documentId}::uuid AND deleted_at IS NULL
        AND (current_version IS NULL OR current_version < ${ref.version}::int)`);
    await settleDocumentStatus(tx, ref.documentId);
  });
  return { ...ref, outcome: 'ready' };
}
