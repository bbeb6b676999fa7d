import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/index.ts';
import { unlinkTopics } from '../../documents/delete.ts';
import { activateVersion, settleDocumentStatus } from '../../documents/write.ts';
import { NotFoundError } from '../../errors.ts';
import { parseStepInput, type VersionRef, versionRefSchema } from '../contract.ts';
import type { PipelineDeps } from '../types.ts';
import { discardVersion } from '../version-discard.ts';
import { sameResultAsCurrent } from '../version-hash.ts';

export type ActivateOutput = VersionRef & { outcome: 'ready' | 'unchanged' };

/**
 * Activate, in one statement: the version becomes `ready` (completion time, duration and, locally,
 * what its execution's model calls cost in its stats) and the document's current version, unless a
 * newer version is already current (executions may finish out of order). Older versions stay
 * queryable by number.
 *
 * A reindex (same bytes as the current version, forced through) whose result equals the current
 * version's (same tree, texts and summaries) is discarded instead: its rows and blobs go, the
 * current version stays, and the outcome is `unchanged`. A document deleted while this version was
 * being processed gets nothing: the version's rows and blobs go and the step fails.
 *
 * @example await activate({ documentId, version: 2 }, deps) // { documentId, version: 2, outcome: 'ready' }
 */
export async function activate(raw: unknown, deps: PipelineDeps): Promise<ActivateOutput> {
  const ref = parseStepInput(versionRefSchema, raw, 'Activate');
  const stats = deps.usage?.() ?? {};
  // The usual case, a document's first version (or this one again), in one statement.
  if (await activateVersion(deps.db, ref, stats, { onlyFirst: true })) return { ...ref, outcome: 'ready' };
  const [doc] = await queryRows<{ deleted: boolean; current: number | null }>(
    deps.db,
    sql`SELECT deleted_at IS NOT NULL AS deleted, current_version AS current FROM documents WHERE id = ${ref.documentId}::uuid`,
  );
  if (doc && !doc.deleted && doc.current !== null && doc.current !== ref.version) {
    const current = { documentId: ref.documentId, version: doc.current };
    if (await sameResultAsCurrent(deps.db, ref, current)) {
      await discardVersion(deps, ref);
      await settleDocumentStatus(deps.db, ref.documentId);
      return { ...current, outcome: 'unchanged' };
    }
  }
  if (doc && !doc.deleted && (await activateVersion(deps.db, ref, stats)))
    return { ...ref, outcome: 'ready' };
  // Topics may have linked the document after it was deleted.
  await unlinkTopics(deps.db, ref.documentId);
  await discardVersion(deps, ref, { keepRow: true });
  throw new NotFoundError(`The document was deleted while version ${ref.version} was being processed`);
}
