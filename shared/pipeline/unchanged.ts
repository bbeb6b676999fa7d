import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/index.ts';
import { pgArray } from '../search/scope.ts';

/** Keys looked up per statement. */
const BATCH = 500;

export interface KnownContent {
  documentId: string;
  version: number;
}

/** The SHA-256 of a file's bytes, hex: the content hash every version records. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The one rule for "unchanged": bytes hashing like a version's recorded hash are that version's
 * content. A version without a hash (a file too large to read) never matches, so a later upload
 * under its key is never mistaken for it. Register, the upload path (`findUnchanged`) and the folder
 * watcher all decide with this.
 *
 * @example sameContent({ fileHash: contentHash(bytes) }, contentHash(bytes)) // true
 */
export function sameContent(version: { fileHash: string | null } | undefined, hash: string): boolean {
  return version !== undefined && hash !== '' && version.fileHash === hash;
}

/**
 * The files whose bytes are those of their live document's latest version (ready or in progress):
 * what Register would answer `unchanged` for. The ingest service answers them at once, without an
 * execution, so re-uploading an unchanged folder costs a hash and one query per 500 files. A latest
 * version that failed is not matched: its bytes go through Register, which reports the failure.
 *
 * @example const known = await findUnchanged(db, [{ key: 'a.md', hash }]); known.get('a.md') // { documentId, version }
 */
export async function findUnchanged(
  db: Db,
  files: { key: string; hash: string }[],
): Promise<Map<string, KnownContent>> {
  const found = new Map<string, KnownContent>();
  for (let start = 0; start < files.length; start += BATCH) {
    const batch = files.slice(start, start + BATCH);
    const rows = await queryRows<{ key: string; documentId: string; version: number; fileHash: string }>(
      db,
      sql`SELECT d.key, d.id AS "documentId", v.version, v.file_hash AS "fileHash"
          FROM documents d
          JOIN LATERAL (SELECT version, file_hash, status FROM document_versions
                        WHERE document_id = d.id ORDER BY version DESC LIMIT 1) v ON true
          WHERE d.deleted_at IS NULL AND d.key = ANY(${pgArray(batch.map((f) => f.key))}::text[])
            AND v.status <> 'failed'`,
    );
    const byKey = new Map(rows.map((row) => [row.key, row]));
    for (const file of batch) {
      const row = byKey.get(file.key);
      if (row && sameContent(row, file.hash))
        found.set(file.key, { documentId: row.documentId, version: row.version });
    }
  }
  return found;
}
