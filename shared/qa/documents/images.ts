import { sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition } from '#shared/access/scope.ts';
import { queryRows } from '#shared/db/client.ts';
import { NotFoundError } from '#shared/errors.ts';
import { type AssetDeps, readCachedBlob } from './assets.ts';

/** An image of a document version, ready to serve. */
export interface ServedImage {
  bytes: Uint8Array;
  mime: string;
  /** The image row's id: new for every parse, so a strong validator for this version's bytes. */
  etag: string;
  version: number;
}

/**
 * An image of a live document of a readable collection by its file name in one version (default the current one), read from
 * the cache or the blob store. The object key comes from the version's `images` row and must lie
 * under the version's own prefix (`documents/<id>/v<n>/`), so a request can never read anything
 * else. Throws `NotFoundError` otherwise.
 *
 * @example await readDocumentImage({ db, store }, access, id, 'img_001.png') // { bytes, mime: 'image/png', ... }
 */
export async function readDocumentImage(
  deps: AssetDeps,
  access: AccessScope,
  documentId: string,
  filename: string,
  version?: number,
): Promise<ServedImage> {
  const [row] = await queryRows<{ id: string; object_key: string; mime: string; version: number }>(
    deps.db,
    sql`SELECT i.id, i.object_key, i.mime, n.version FROM documents d
        JOIN nodes n ON n.document_id = d.id AND n.version = coalesce(${version ?? null}::int, d.current_version)
        JOIN images i ON i.node_id = n.id
        WHERE d.id = ${documentId}::uuid AND d.deleted_at IS NULL AND i.filename = ${filename}
          AND ${collectionCondition(access, sql`d.collection`)}
        LIMIT 1`,
  );
  if (!row) throw new NotFoundError(`Document ${documentId} has no image ${filename}`);
  const prefix = `documents/${documentId}/v${row.version}/`;
  if (!row.object_key.startsWith(prefix) || row.object_key.slice(prefix.length).includes('/'))
    throw new NotFoundError(`Document ${documentId} has no image ${filename}`);
  const blob = await readCachedBlob(deps, row.object_key, row.mime);
  return { ...blob, etag: row.id, version: Number(row.version) };
}
