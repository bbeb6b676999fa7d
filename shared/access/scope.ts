import { type SQL, sql } from 'drizzle-orm';
import { assertCollectionName } from './collection-name.ts';

/**
 * What an asker may read: every collection (`all`, the local server) or the named ones. Every
 * repository function that returns documents, passages, images, topics, counts, versions, diffs,
 * history or references takes one and applies it in SQL (`collectionCondition`), so ranks, totals
 * and counts are those of a corpus holding only the readable documents.
 */
export type AccessScope =
  | { readonly kind: 'all' }
  | { readonly kind: 'collections'; readonly collections: readonly string[] };

/** Read access to every collection: the local, single-user server. */
export const ALL_COLLECTIONS: AccessScope = Object.freeze({ kind: 'all' });

/** Read access to the named collections only (none: nothing is readable). */
export function readableCollections(names: readonly string[]): AccessScope {
  for (const name of names) assertCollectionName(name);
  return Object.freeze({ kind: 'collections', collections: Object.freeze([...new Set(names)].sort()) });
}

/**
 * The scope narrowed to one collection (`?collection=`): that collection when the scope reads it,
 * else nothing, exactly as if the collection did not exist. Undefined keeps the scope.
 */
export function narrowScope(scope: AccessScope, collection: string | undefined): AccessScope {
  if (collection === undefined) return scope;
  assertCollectionName(collection);
  return readableCollections(allows(scope, collection) ? [collection] : []);
}

/** True when the scope includes the collection (reads it, for a read scope; may change it, for a write scope). */
export function allows(scope: AccessScope, collection: string): boolean {
  return scope.kind === 'all' || scope.collections.includes(collection);
}

/**
 * The scope as a SQL condition on a `documents.collection` column (e.g. sql`d.collection`); `TRUE`
 * for `all`, so the unrestricted plans stay as they were.
 */
export function collectionCondition(scope: AccessScope, column: SQL): SQL {
  if (scope.kind === 'all') return sql`TRUE`;
  if (scope.collections.length === 0) return sql`FALSE`;
  // Names are checked by readableCollections, so the literal needs no escaping beyond quotes.
  return sql`${column} = ANY(${`{${scope.collections.map((c) => `"${c}"`).join(',')}}`}::text[])`;
}

/** The scope as a condition on a document id column: the document is live or not, in a readable collection. */
export function documentInScope(scope: AccessScope, documentId: SQL): SQL {
  if (scope.kind === 'all') return sql`TRUE`;
  return sql`${documentId} IN (SELECT sd.id FROM documents sd WHERE ${collectionCondition(scope, sql`sd.collection`)})`;
}
