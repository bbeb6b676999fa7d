import { sql } from 'drizzle-orm';
import type { AccessScope } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { hydrateHits } from '#shared/search/hydrate.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { readPipeTable, readSheetRows } from './read-rows.ts';
import type { Table } from './table.ts';

/** A table read back from the database, with the passage nodes its rows cite. */
export interface LoadedTable {
  table: Table;
  /** Node ids of the passages, in `TableRow.passage` order. */
  passageIds: string[];
}

interface NodeRow {
  id: string;
  title: string | null;
  content: string | null;
  metadata: Record<string, unknown> | string | null;
}

const json = (value: NodeRow['metadata']): Record<string, unknown> =>
  !value ? {} : typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : value;

/** Whether a hit is part of a table: a sheet's rows passage or a table node. */
export function isTableHit(hit: SearchHit): boolean {
  return hit.metadata?.kind === 'rows' || hit.nodeType === 'table';
}

/**
 * Reads the whole table a hit belongs to: for a sheet's rows passage, the rows passages of its
 * sheet (its section) under the same header row as the hit's, read by that header's names; for a table node, its pipe table. Titled by
 * the sheet's name, or for a table node by the section it stands in.
 */
export async function loadTable(db: Db, hit: SearchHit): Promise<LoadedTable | undefined> {
  const title = hit.sectionPath.at(-1) ?? hit.documentName;
  if (hit.nodeType === 'table') {
    const table = readPipeTable(title, hit.content);
    return table ? { table, passageIds: [hit.nodeId] } : undefined;
  }
  const [section] = await queryRows<NodeRow>(
    db,
    sql`SELECT s.id, s.title, s.content, s.metadata FROM nodes s
        JOIN nodes n ON n.parent_id = s.id WHERE n.id = ${hit.nodeId}::uuid`,
  );
  if (!section) return undefined;
  const passages = await queryRows<NodeRow>(
    db,
    sql`SELECT id, title, content, metadata FROM nodes
        WHERE parent_id = ${section.id}::uuid AND node_type = 'paragraph' ORDER BY ordinal`,
  );
  const rows = passages
    .map((p) => ({ id: p.id, content: p.content ?? '', metadata: json(p.metadata) }))
    .filter((p) => p.metadata.kind === 'rows');
  // A sheet may hold several tables, each under its own header (`columns` on its passages): the
  // hit's table is the run of passages under the same header as the hit's.
  const sheetColumns = json(section.metadata).columns;
  const headerOf = (metadata: Record<string, unknown>) => {
    const columns = metadata.columns ?? sheetColumns;
    return Array.isArray(columns) ? columns.map(String) : [];
  };
  const at = rows.findIndex((p) => p.id === hit.nodeId);
  const key = JSON.stringify(headerOf(rows[at]?.metadata ?? {}));
  let first = Math.max(at, 0);
  let last = first;
  while (first > 0 && JSON.stringify(headerOf(rows[first - 1]?.metadata ?? {})) === key) first -= 1;
  while (last + 1 < rows.length && JSON.stringify(headerOf(rows[last + 1]?.metadata ?? {})) === key)
    last += 1;
  const run = rows.slice(first, last + 1);
  const table = readSheetRows(section.title ?? title, headerOf(run[0]?.metadata ?? {}), run);
  return { table, passageIds: run.map((p) => p.id) };
}

/** The passages as search hits, in the order given (for citations). */
export async function passageHits(
  db: Db,
  access: AccessScope,
  nodeIds: readonly string[],
): Promise<SearchHit[]> {
  return hydrateHits(
    db,
    access,
    nodeIds.map((nodeId) => ({ nodeId, score: 1 })),
  );
}
