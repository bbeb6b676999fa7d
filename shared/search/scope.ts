import { type SQL, sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition } from '#shared/access/scope.ts';
import { ValidationError } from '#shared/errors.ts';
import type { LeafScope } from './memory-index.ts';
import type { SearchFilters } from './types.ts';

/** Search results are leaves: the units that carry text. */
export const LEAF_TYPES = ['paragraph', 'table', 'image'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a textual UUID (any version), the form of every id in the database. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Throws a ValidationError naming the field when a filter holds something the database would reject. */
export function validateFilters(filters: SearchFilters = {}): SearchFilters {
  for (const field of ['documentIds', 'topicIds'] as const) {
    const bad = filters[field]?.find((id) => !isUuid(id));
    if (bad !== undefined) throw new ValidationError(`filters.${field}: '${bad}' is not a UUID`);
  }
  const { version } = filters;
  if (version !== undefined && (!Number.isInteger(version) || version < 1)) {
    throw new ValidationError(`filters.version must be a positive integer (got ${version})`);
  }
  return filters;
}

/**
 * A Postgres array literal (`{"a","b"}`) for a text, uuid or other array parameter, so a list
 * travels as one bound value on every driver.
 */
export function pgArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

/**
 * The searchable scope as a WHERE condition over `nodes n JOIN documents d ON d.id = n.document_id`:
 * live documents of the readable collections, their current version (or the requested one), leaf
 * nodes, and the filters.
 */
export function scopeCondition(access: AccessScope, filters: SearchFilters = {}): SQL {
  const parts: SQL[] = [
    sql`d.deleted_at IS NULL`,
    ...(access.kind === 'all' ? [] : [collectionCondition(access, sql`d.collection`)]),
    sql.raw(`n.node_type IN (${LEAF_TYPES.map((t) => `'${t}'`).join(', ')})`),
    filters.version === undefined
      ? sql`n.version = d.current_version`
      : // Only a version whose whole pipeline succeeded: never one in progress or failed.
        sql`n.version = ${filters.version}::int AND EXISTS (SELECT 1 FROM document_versions dv
          WHERE dv.document_id = n.document_id AND dv.version = n.version AND dv.status = 'ready')`,
  ];
  if (filters.documentIds) parts.push(sql`n.document_id = ANY(${pgArray(filters.documentIds)}::uuid[])`);
  if (filters.topicIds) {
    parts.push(sql`n.document_id IN (
      SELECT dt.document_id FROM document_topics dt WHERE dt.topic_id = ANY(${pgArray(filters.topicIds)}::uuid[]))`);
  }
  if (filters.categories) {
    const categories = pgArray(filters.categories);
    parts.push(sql`(n.category = ANY(${categories}::text[]) OR EXISTS (
      SELECT 1 FROM nodes p WHERE p.id = n.parent_id AND p.category = ANY(${categories}::text[])))`);
  }
  return sql.join(parts, sql` AND `);
}

/**
 * The scope as the in-memory BM25 index sees it (its readable collections, its chosen documents), or
 * undefined when the index cannot serve it: the index holds every live document's current version,
 * and knows neither older versions, topics nor categories.
 */
export function memoryScope(access: AccessScope, filters: SearchFilters = {}): LeafScope | undefined {
  if (filters.version !== undefined || filters.topicIds !== undefined || filters.categories !== undefined)
    return undefined;
  return {
    ...(access.kind === 'collections' ? { collections: access.collections } : {}),
    ...(filters.documentIds ? { documentIds: filters.documentIds } : {}),
  };
}
