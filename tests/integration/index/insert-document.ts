import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';

/** Inserts a `documents` row (nodes reference it) and returns its id. */
export async function insertDocument(db: Db, key: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO documents (key, filename, file_type) VALUES (${key}, ${key}, 'md') RETURNING id`,
  );
  if (!row) throw new Error('documents insert returned no row');
  return row.id;
}
