import { sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import type { NodeType } from '#shared/db/schema.ts';
import { PATH_SEPARATOR } from '#shared/index/flatten.ts';
import { loadBreadcrumbs } from './breadcrumb.ts';
import { pgArray } from './scope.ts';
import type { RankedNode, SearchDeps, SearchFilters, SearchHit } from './types.ts';

interface HitRow {
  id: string;
  document_id: string;
  version: number;
  node_type: NodeType;
  content: string | null;
  ordinal: number;
  metadata: Record<string, unknown> | string | null;
  filename: string;
  key: string;
}

/**
 * Loads what a result shows (content, document, section path, breadcrumb) for ranked nodes, keeping
 * their order: two queries for the whole batch.
 */
export async function hydrateHits(db: Db, access: AccessScope, ranked: RankedNode[]): Promise<SearchHit[]> {
  if (ranked.length === 0) return [];
  const ids = ranked.map((r) => r.nodeId);
  const [rows, crumbs] = await Promise.all([
    queryRows<HitRow>(
      db,
      sql`SELECT n.id, n.document_id, n.version, n.node_type, n.content, n.ordinal, n.metadata, d.filename, d.key
          FROM nodes n JOIN documents d ON d.id = n.document_id
          WHERE n.id = ANY(${pgArray(ids)}::uuid[]) AND ${collectionCondition(access, sql`d.collection`)}`,
    ),
    loadBreadcrumbs(db, access, ids),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const hits: SearchHit[] = [];
  for (const rank of ranked) {
    const row = byId.get(rank.nodeId);
    if (!row) continue; // deleted between ranking and loading
    const breadcrumb = crumbs.get(rank.nodeId) ?? [];
    const sectionPath = breadcrumb.map((b) => b.title);
    const hit: SearchHit = {
      nodeId: row.id,
      documentId: row.document_id,
      documentName: row.filename,
      documentKey: row.key,
      version: Number(row.version),
      nodeType: row.node_type,
      content: row.content ?? '',
      sectionPath,
      path: [row.filename, ...sectionPath].join(PATH_SEPARATOR),
      breadcrumb,
      score: rank.score,
      ordinal: Number(row.ordinal),
      metadata: parseJson(row.metadata),
    };
    if (rank.highlights?.length) hit.highlights = rank.highlights;
    if (rank.relevance !== undefined) hit.relevance = rank.relevance;
    hits.push(hit);
  }
  return hits;
}

function parseJson(value: HitRow['metadata']): Record<string, unknown> {
  if (!value) return {};
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return value;
}

/**
 * A ranking of query text (`rankFulltext`, `rankSemantic`, `rankHybrid`): the best `limit` nodes.
 * Once `signal` aborts (the asker went away) it starts no further query and rejects with its reason.
 */
export type QueryRanker = (
  deps: SearchDeps,
  query: string,
  filters: SearchFilters,
  limit: number,
  signal?: AbortSignal,
) => Promise<RankedNode[]>;

/**
 * The search of a ranking: its nodes with what a result shows (`hydrateHits`). Filters default to
 * none, `limit` to `search.topK`; an aborted `signal` stops it before its next query.
 */
export function searchBy(rank: QueryRanker) {
  return async (
    deps: SearchDeps,
    query: string,
    filters: SearchFilters = {},
    limit: number = deps.search.topK,
    signal?: AbortSignal,
  ): Promise<SearchHit[]> => {
    signal?.throwIfAborted();
    const ranked = await rank(deps, query, filters, limit, signal);
    signal?.throwIfAborted();
    return hydrateHits(deps.db, deps.access, ranked);
  };
}
