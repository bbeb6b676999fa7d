import { sql } from 'drizzle-orm';
import type { VersionRef } from './contract.ts';
import type { PipelineDeps } from './types.ts';
import { versionPrefix } from './version-prefix.ts';

/**
 * Removes what the pipeline wrote for a version: its nodes (with their embeddings and image rows),
 * its derived blobs and, unless `keepRow`, the version row itself (a reindex that changed nothing
 * leaves no trace; a version of a deleted document stays in its history).
 */
export async function discardVersion(
  deps: Pick<PipelineDeps, 'db' | 'store'>,
  ref: VersionRef,
  options: { keepRow?: boolean } = {},
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.execute(
      sql`DELETE FROM nodes WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`,
    );
    if (!options.keepRow) {
      await tx.execute(
        sql`DELETE FROM document_versions WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`,
      );
    }
  });
  await deps.store.deletePrefix(versionPrefix(ref));
}
