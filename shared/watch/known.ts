import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';

/** A live document under a watched folder's prefix, with the hash of its latest version. */
export interface KnownDocument {
  id: string;
  key: string;
  fileHash: string | null;
}

/** The live documents whose key starts with `prefix`, with their latest version's file hash. */
export async function knownDocuments(db: Db, prefix: string): Promise<KnownDocument[]> {
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await queryRows<{ id: string; key: string; file_hash: string | null }>(
    db,
    sql`SELECT d.id, d.key,
          (SELECT v.file_hash FROM document_versions v WHERE v.document_id = d.id
           ORDER BY v.version DESC LIMIT 1) AS file_hash
        FROM documents d WHERE d.deleted_at IS NULL AND d.key LIKE ${pattern}`,
  );
  return rows.map((row) => ({ id: row.id, key: row.key, fileHash: row.file_hash }));
}
