import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { NotFoundError } from '#shared/errors.ts';
import type { BlobStore } from '#shared/storage/types.ts';
import { LruCache } from './lru.ts';

/** A stored blob with its media type. */
export interface CachedBlob {
  bytes: Uint8Array;
  mime: string;
}

/** One version of a document as Stage 1 reads it: its Markdown rendition and its images by file name. */
export interface DocumentAssets {
  documentId: string;
  name: string;
  version: number;
  markdown: string;
  /** Image rows of the version by file name: the object key is only ever taken from here. */
  images: Map<string, { objectKey: string; mime: string; nodeId: string }>;
}

export interface AssetDeps {
  db: Db;
  store: BlobStore;
  /** Defaults to the process-wide cache (`sharedBlobCache`). */
  cache?: LruCache<CachedBlob>;
}

/**
 * Renditions and images read recently stay in memory (docs/spec.md#documents-mode); the byte bound
 * keeps large images from filling memory.
 */
const sharedCache = new LruCache<CachedBlob>({ maxEntries: 5000, maxBytes: 256 * 2 ** 20 });

/** The process-wide cache of Markdown renditions and images read from the blob store. */
export function sharedBlobCache(): LruCache<CachedBlob> {
  return sharedCache;
}

/**
 * Reads a blob through the cache: from memory when present, else from the store (then cached).
 * Keys come from database rows, never from request input.
 */
export async function readCachedBlob(deps: AssetDeps, key: string, mime: string): Promise<CachedBlob> {
  const cache = deps.cache ?? sharedCache;
  const hit = cache.get(key);
  if (hit) return hit;
  const blob = { bytes: await deps.store.get(key), mime };
  cache.set(key, blob, blob.bytes.byteLength);
  return blob;
}

/**
 * Loads a document version's Markdown rendition (through the cache) and the list of its images.
 * Throws `NotFoundError` when the document, the version or its rendition does not exist.
 */
export async function loadDocumentAssets(
  deps: AssetDeps,
  documentId: string,
  version?: number,
): Promise<DocumentAssets> {
  const [row] = await queryRows<{ name: string; version: number; markdown_key: string | null }>(
    deps.db,
    sql`SELECT d.filename AS name, v.version, v.markdown_key FROM documents d
        JOIN document_versions v ON v.document_id = d.id
          AND v.version = coalesce(${version ?? null}::int, d.current_version)
        WHERE d.id = ${documentId}::uuid AND d.deleted_at IS NULL`,
  );
  if (!row) throw new NotFoundError(`Document ${documentId} has no such version`);
  if (!row.markdown_key)
    throw new NotFoundError(`Document ${documentId} v${row.version} has no Markdown rendition`);
  const markdown = new TextDecoder().decode(
    (await readCachedBlob(deps, row.markdown_key, 'text/markdown')).bytes,
  );
  const images = await versionImages(deps.db, documentId, Number(row.version));
  return { documentId, name: row.name, version: Number(row.version), markdown, images };
}

/** The image rows of one version of a document, by file name. */
export async function versionImages(
  db: Db,
  documentId: string,
  version: number,
): Promise<DocumentAssets['images']> {
  // In pages: thousands of images pass the Data API's 1 MiB result.
  const rows = await readPaged<{ filename: string; object_key: string; mime: string; node_id: string }>(db, {
    columns: sql`i.filename, i.object_key, i.mime, i.node_id`,
    from: sql`images i JOIN nodes n ON n.id = i.node_id`,
    where: sql`n.document_id = ${documentId}::uuid AND n.version = ${version}::int`,
    key: sql`n.ordinal`,
    keyType: 'int',
    rowBytes: sql`128 + octet_length(i.filename) + octet_length(i.object_key) + octet_length(i.mime)`,
  });
  return new Map(rows.map((r) => [r.filename, { objectKey: r.object_key, mime: r.mime, nodeId: r.node_id }]));
}
