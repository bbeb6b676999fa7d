import { sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { NO_READY_VERSION, NotFoundError, ValidationError } from '#shared/errors.ts';
import { isUuid } from '#shared/search/scope.ts';
import { loadOutline } from './load.ts';
import { diffOutlines } from './outline-diff.ts';
import type { DocumentDiff } from './types.ts';

export interface DiffRange {
  /** The old version; default: the latest ready version before `to`. */
  from?: number;
  /** The new version; default: the current version. */
  to?: number;
}

/**
 * What changed in a live document of a readable collection between two of its ready versions
 * (default: the previous one and the current one); a document in another collection is unknown.
 *
 * @throws NotFoundError for an unknown document or a version without content;
 *   ValidationError when the range is empty (one version only, or `from` = `to`).
 * @example await diffVersions(db, access, id) // { from: { version: 1 }, to: { version: 2 }, sections: [...] }
 */
export async function diffVersions(
  db: Db,
  access: AccessScope,
  documentId: string,
  range: DiffRange = {},
): Promise<DocumentDiff> {
  if (!isUuid(documentId)) throw new ValidationError(`document id '${documentId}' is not a UUID`);
  const [doc] = await queryRows<{ key: string; current_version: number | null }>(
    db,
    sql`SELECT key, current_version FROM documents WHERE id = ${documentId}::uuid AND deleted_at IS NULL
        AND ${collectionCondition(access, sql`collection`)}`,
  );
  if (!doc) throw new NotFoundError(`No document with id ${documentId}`);
  const ready = (
    await queryRows<{ version: number }>(
      db,
      sql`SELECT version FROM document_versions WHERE document_id = ${documentId}::uuid AND status = 'ready'
          ORDER BY version`,
    )
  ).map((row) => Number(row.version));
  const to = range.to ?? (doc.current_version === null ? undefined : Number(doc.current_version));
  if (to === undefined)
    throw new NotFoundError(`Document ${documentId} has no ready version yet`, NO_READY_VERSION);
  const from = range.from ?? ready.filter((v) => v < to).at(-1);
  if (from === undefined) {
    throw new ValidationError(
      `Document ${doc.key} has no ready version before version ${to} to compare with`,
    );
  }
  if (from === to)
    throw new ValidationError(`from and to are both version ${to}: choose two different versions`);
  for (const version of [from, to]) {
    if (!ready.includes(version)) {
      throw new NotFoundError(
        `Document ${doc.key} has no ready version ${version} (ready: ${ready.join(', ') || 'none'})`,
      );
    }
  }
  return diffVersionPair(db, { documentId, key: doc.key }, from, to);
}

/**
 * The diff of two versions whose rows exist, whatever their status (the Summarize step compares a
 * version still processing with the previous one).
 */
export async function diffVersionPair(
  db: Db,
  doc: { documentId: string; key: string },
  from: number,
  to: number,
): Promise<DocumentDiff> {
  const [before, after] = await Promise.all([
    loadOutline(db, doc.documentId, from),
    loadOutline(db, doc.documentId, to),
  ]);
  return {
    documentId: doc.documentId,
    key: doc.key,
    from: { version: from, title: before.title },
    to: { version: to, title: after.title },
    ...diffOutlines(before, after),
  };
}
