import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/index.ts';
import type { VersionRef } from './contract.ts';
import { sameContent } from './unchanged.ts';

/**
 * A hash of what a version's pipeline produced: every node in reading order with its type, depth,
 * position, title, content (image descriptions included), summary, category and metadata, and the
 * embedding models (with their dimensions) its vectors were made by. Ids, the vectors themselves and
 * timestamps are left out, so two runs over the same bytes with the same parser and models hash
 * alike, and a reindex after a change of embedder is kept.
 */
export async function versionResultHash(db: Db, ref: VersionRef): Promise<string> {
  const [row] = await queryRows<{ hash: string }>(
    db,
    sql`SELECT md5(coalesce(string_agg(concat_ws(chr(31), node_type, depth::text, position::text,
          coalesce(title, ''), coalesce(content, ''), coalesce(summary, ''), coalesce(category, ''),
          metadata::text), chr(30) ORDER BY ordinal), '')
        || coalesce((SELECT string_agg(DISTINCT e.model || ':' || e.dimensions::text, ',')
             FROM embeddings e JOIN nodes m ON m.id = e.node_id
             WHERE m.document_id = ${ref.documentId}::uuid AND m.version = ${ref.version}::int), '')) AS hash
        FROM nodes WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`,
  );
  return row?.hash ?? '';
}

/**
 * True when `candidate` was made from the same bytes as `current` and produced the same result: a
 * reindex that changed nothing.
 */
export async function sameResultAsCurrent(
  db: Db,
  candidate: VersionRef,
  current: VersionRef,
): Promise<boolean> {
  const hashes = await queryRows<{ version: number; fileHash: string }>(
    db,
    sql`SELECT version, file_hash AS "fileHash" FROM document_versions
        WHERE document_id = ${candidate.documentId}::uuid
          AND version IN (${candidate.version}::int, ${current.version}::int)`,
  );
  const [a, b] = hashes;
  if (hashes.length !== 2 || !b || !sameContent(a, b.fileHash)) return false;
  const [left, right] = await Promise.all([versionResultHash(db, candidate), versionResultHash(db, current)]);
  return left === right;
}
