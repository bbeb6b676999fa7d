import { sql } from 'drizzle-orm';
import { type AccessScope, documentInScope } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { pgArray } from './scope.ts';
import type { BreadcrumbEntry } from './types.ts';

/** Trees deeper than this are malformed (a parent cycle); the walk stops there. */
const MAX_DEPTH = 64;

/**
 * The ancestor sections (title, summary, depth; outermost first) of each node, for a whole batch of
 * hits in one recursive query. The document root is not part of a breadcrumb.
 *
 * @example const crumbs = await loadBreadcrumbs(db, access, hits.map((h) => h.nodeId)); crumbs.get(id)
 */
export async function loadBreadcrumbs(
  db: Db,
  access: AccessScope,
  nodeIds: string[],
): Promise<Map<string, BreadcrumbEntry[]>> {
  const result = new Map<string, BreadcrumbEntry[]>(nodeIds.map((id) => [id, []]));
  if (nodeIds.length === 0) return result;
  const rows = await queryRows<{ hit: string; title: string | null; summary: string | null; depth: number }>(
    db,
    sql`WITH RECURSIVE up AS (
          SELECT h.id AS hit, a.id, a.parent_id, a.node_type, a.title, a.summary, a.depth, 1 AS hop
          FROM nodes h JOIN nodes a ON a.id = h.parent_id
          WHERE h.id = ANY(${pgArray(nodeIds)}::uuid[]) AND ${documentInScope(access, sql`h.document_id`)}
          UNION ALL
          SELECT up.hit, a.id, a.parent_id, a.node_type, a.title, a.summary, a.depth, up.hop + 1
          FROM up JOIN nodes a ON a.id = up.parent_id
          WHERE up.hop < ${MAX_DEPTH}::int
        )
        SELECT hit, title, summary, depth FROM up WHERE node_type = 'section' ORDER BY hit, depth`,
  );
  for (const row of rows) {
    result.get(row.hit)?.push({ title: row.title ?? '', summary: row.summary, depth: Number(row.depth) });
  }
  return result;
}

// The browse helpers live beside their own types; re-exported here, where the tools look for them.
export { getChildren, getContextWindow, getNode } from './nodes.ts';
export { getDocumentStructure } from './structure.ts';
