import { sql } from 'drizzle-orm';
import { queryRows } from '../db/index.ts';
import { settleDocumentStatus } from '../documents/write.ts';
import type { PipelineInput } from './contract.ts';
import type { PipelineDeps } from './types.ts';
import { discardVersion } from './version-discard.ts';

type Deps = Pick<PipelineDeps, 'db' | 'store'>;

export interface RecoveryReport {
  /** Versions sent through the pipeline again, from Parse on. */
  resumed: { documentId: string; version: number; key: string }[];
  /** Versions marked failed, each with its reason. */
  failed: { documentId: string; version: number; reason: string }[];
  /** Documents queued but never registered, submitted again. */
  requeued: { documentId: string; key: string }[];
}

interface Interrupted {
  documentId: string;
  version: number;
  key: string;
  step: string | null;
  resumes: number;
  deleted: boolean;
  latest: number;
}

/**
 * Crash recovery, run when a process opens the product: versions left `processing` (and documents
 * left `queued`) by a process that stopped are either resumed through `start` or marked failed with
 * a reason. A version is resumed once: the latest version of a live document that was not resumed
 * before. One superseded by a newer version, of a deleted document, or interrupted a second time
 * (a file that kills the process must not do so forever) is marked failed. Nothing half-done was
 * ever visible to search: only Activate makes a version current.
 *
 * @example await recoverInterrupted(deps, (input) => void runner.run(input), { staleAfterMs: 0 })
 */
export async function recoverInterrupted(
  deps: Deps,
  start: (input: PipelineInput & { documentId: string }) => void,
  options: { staleAfterMs: number },
): Promise<RecoveryReport> {
  const { db } = deps;
  const report: RecoveryReport = { resumed: [], failed: [], requeued: [] };
  const cutoff = new Date(Date.now() - options.staleAfterMs).toISOString();
  const interrupted = await queryRows<Interrupted>(
    db,
    sql`SELECT v.document_id AS "documentId", v.version, d.key, v.step,
          coalesce((v.stats->>'resumes')::int, 0) AS resumes, d.deleted_at IS NOT NULL AS deleted,
          (SELECT max(w.version) FROM document_versions w WHERE w.document_id = v.document_id) AS latest
        FROM document_versions v JOIN documents d ON d.id = v.document_id
        WHERE v.status = 'processing' AND v.updated_at <= ${cutoff}::timestamptz
        ORDER BY v.created_at`,
  );
  for (const v of interrupted) {
    const during = `the process stopped during ${v.step ?? 'ingestion'}`;
    let reason: string | undefined;
    if (v.deleted) reason = 'the document was deleted';
    else if (v.version < v.latest) reason = `${during}; superseded by version ${v.latest}`;
    else if (v.resumes >= 1) {
      reason =
        `DropQA stopped twice while processing this file (during ${v.step ?? 'ingestion'}), so it was not ` +
        'tried a third time; the file may trip a bug: reindex it to try again, or report it with the server log';
    }
    if (reason) {
      await markInterrupted(deps, v, reason);
      report.failed.push({ documentId: v.documentId, version: v.version, reason });
      continue;
    }
    await db.execute(sql`
      UPDATE document_versions SET stats = stats || jsonb_build_object('resumes', ${v.resumes + 1}::int),
        updated_at = now()
      WHERE document_id = ${v.documentId}::uuid AND version = ${v.version}::int`);
    start({ key: v.key, documentId: v.documentId, resumeVersion: v.version });
    report.resumed.push({ documentId: v.documentId, version: v.version, key: v.key });
  }

  const queued = await queryRows<{ documentId: string; key: string }>(
    db,
    sql`SELECT d.id AS "documentId", d.key FROM documents d
        WHERE d.deleted_at IS NULL AND d.status = 'queued' AND d.updated_at <= ${cutoff}::timestamptz
          AND NOT EXISTS (SELECT 1 FROM document_versions v
                          WHERE v.document_id = d.id AND v.status = 'processing')`,
  );
  for (const doc of queued) {
    start({ key: doc.key, documentId: doc.documentId });
    report.requeued.push(doc);
  }
  return report;
}

async function markInterrupted(deps: Deps, v: Interrupted, reason: string): Promise<void> {
  const { db } = deps;
  await db.execute(sql`
    UPDATE document_versions SET status = 'failed', error = ${reason}, completed_at = now(), updated_at = now()
    WHERE document_id = ${v.documentId}::uuid AND version = ${v.version}::int AND status = 'processing'`);
  await settleDocumentStatus(db, v.documentId);
  await discardVersion(deps, v, { keepRow: true });
}
