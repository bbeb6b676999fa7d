import { and, eq, isNull } from 'drizzle-orm';
import { schema } from '../../db/index.ts';
import { settleDocumentStatus } from '../../documents/write.ts';
import { markFailedInputSchema, parseStepInput } from '../contract.ts';
import { failureCode, failureReason } from '../failure-reason.ts';
import type { PipelineDeps } from '../types.ts';
import { discardVersion } from '../version-discard.ts';

const { documents, documentVersions } = schema;

/**
 * MarkFailed (every Catch leads here): the version becomes `failed` with a readable reason taken from
 * `$.error`, and the rows and blobs it wrote are removed; the document keeps its current version
 * (`ready`, noting the failure) or, with none, becomes `failed`. When Register failed before creating a version, the document itself records it.
 *
 * @example await markFailed({ key, register, error: { Error: 'Error', Cause: 'boom' } }, deps) // { reason: 'boom' }
 */
export async function markFailed(raw: unknown, deps: PipelineDeps): Promise<{ reason: string }> {
  const input = parseStepInput(markFailedInputSchema, raw, 'MarkFailed');
  const { db } = deps;
  const reason = failureReason(input.error);
  const code = failureCode(input.error);
  const now = new Date();
  if (input.register && input.register.outcome !== 'unchanged') {
    const { documentId, version } = input.register;
    await db
      .update(documentVersions)
      .set({ status: 'failed', error: reason, errorCode: code, completedAt: now, updatedAt: now })
      .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
    await settleDocumentStatus(db, documentId);
    // A failed version is never searched, not even by number: what it wrote goes.
    await discardVersion(deps, { documentId, version }, { keepRow: true });
    return { reason };
  }
  const [doc] = await db
    .select({ id: documents.id, currentVersion: documents.currentVersion })
    .from(documents)
    .where(
      and(
        input.documentId ? eq(documents.id, input.documentId) : eq(documents.key, input.key),
        isNull(documents.deletedAt),
      ),
    );
  if (doc) {
    await db
      .update(documents)
      .set(
        doc.currentVersion === null
          ? { status: 'failed', statusDetail: reason, failureCode: code, updatedAt: now }
          : {
              status: 'ready',
              statusDetail: `the last update failed: ${reason}`,
              failureCode: code,
              updatedAt: now,
            },
      )
      .where(eq(documents.id, doc.id));
  }
  return { reason };
}
