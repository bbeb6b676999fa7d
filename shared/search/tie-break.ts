import { type SQL, sql } from 'drizzle-orm';

/**
 * Where a leaf sits: its document's key and its ordinal in the document version. Equal scores are
 * ordered by it, never by node ids: those are random, so near-duplicate pages (the same page of
 * another year) that tie came back in another order after every ingest of the same files.
 */
export interface LeafPosition {
  documentKey?: string;
  ordinal?: number;
}

/**
 * Orders two strings by Unicode code point, as Postgres' "C" collation orders their UTF-8 bytes
 * (`<` on JS strings compares UTF-16 units, which differs above U+FFFF).
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * The stable order of two leaves of equal score: by document key (code points, as `ORDER BY key
 * COLLATE "C"`), then ordinal; a leaf without a position after one with it; 0 when they cannot be
 * told apart.
 *
 * @example hits.sort((a, b) => b.score - a.score || comparePositions(a, b))
 */
export function comparePositions(a: LeafPosition, b: LeafPosition): number {
  if (a.documentKey === undefined || b.documentKey === undefined) {
    return Number(a.documentKey === undefined) - Number(b.documentKey === undefined);
  }
  return compareCodePoints(a.documentKey, b.documentKey) || (a.ordinal ?? 0) - (b.ordinal ?? 0);
}

/**
 * `ORDER BY` keys for equal scores in SQL, in the order of `comparePositions` (`C` collation: by
 * code point), the node id last: the relation `alias` must have `key`, `ordinal` and `id` columns.
 */
export function tieOrder(alias: string): SQL {
  return sql.raw(`${alias}.key COLLATE "C", ${alias}.ordinal, ${alias}.id`);
}
