import { and, eq, isNull } from 'drizzle-orm';
import type { AccessScope } from '../access/scope.ts';
import { type Db, schema } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';
import { isUuid } from '../search/scope.ts';
import { type DocumentSummary, getDocument } from './queries.ts';

const { documents } = schema;

/**
 * The live document named by its id, its key, or (as the API and the CLI store uploads) the key
 * under `uploads/`: what `dropqa versions|delete|reindex <key or id>` accept.
 *
 * @example await resolveDocument(db, ALL_COLLECTIONS, 'notes/guide.md')
 */
export async function resolveDocument(
  db: Db,
  access: AccessScope,
  keyOrId: string,
): Promise<DocumentSummary> {
  if (isUuid(keyOrId)) return getDocument(db, access, keyOrId);
  for (const key of [keyOrId, `uploads/${keyOrId.replace(/^\.?\/+/, '')}`]) {
    const [row] = await db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.key, key), isNull(documents.deletedAt)));
    if (row) return getDocument(db, access, row.id);
  }
  throw new NotFoundError(`No document with id or key ${keyOrId}`);
}
