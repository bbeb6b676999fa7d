import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { byteBatches, parameterBytes } from '#shared/db/data-api-limits.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { rowValues } from '#shared/db/row-values.ts';
import { ANALYZER_VERSION } from './analyze.ts';
import { leafIndexBody, leafIndexParts } from './flatten.ts';
import { buildTsvector, type IndexedTokens } from './tsvector.ts';

/** Versions re-analysed per round: a round reads their nodes and writes them back. */
const VERSIONS_PER_ROUND = 20;

/** A stored node, as much of it as its search vector is built from. */
export interface StoredNode {
  id: string;
  parentId: string | null;
  nodeType: string;
  title: string | null;
  content: string | null;
  summary: string | null;
  /** The contextual sentence the context step prepended (`metadata.context`), if any. */
  context: string | null;
  /** `metadata.kind`: `rows` marks a sheet's rows passage, indexed row by row. */
  kind: string | null;
}

/** A document version whose search vectors an older analysis built. */
export interface VersionRef {
  documentId: string;
  version: number;
}

/**
 * A node's search vector and token count from its stored text, as the indexer and the enrichment
 * steps build them: the document and sections by title (A) and summary (C); leaves by section path
 * (A, `leafIndexParts`), content with any image text (B) and context sentence (C).
 */
export function reanalysedTokens(node: StoredNode, path: readonly string[]): IndexedTokens {
  if (node.nodeType === 'document' || node.nodeType === 'section')
    return buildTsvector([
      { text: node.title, weight: 'A' },
      { text: node.summary, weight: 'C' },
    ]);
  const leaf = {
    type: node.nodeType,
    text: node.content ?? '',
    metadata: node.kind ? { kind: node.kind } : undefined,
  };
  return buildTsvector([
    ...leafIndexParts(path, leafIndexBody(path, leaf)),
    { text: node.context, weight: 'C' },
  ]);
}

/** Current versions of live documents an older analysis indexed (null: before versions were recorded). */
const STALE = sql`document_versions v
  JOIN documents d ON d.id = v.document_id AND d.current_version = v.version
  WHERE d.deleted_at IS NULL AND coalesce(v.analyzer_version, 0) < ${ANALYZER_VERSION}::int`;

/** The current versions of live documents whose vectors an older analysis built (null: before versions were recorded). */
export async function staleVersions(db: Db, limit: number): Promise<VersionRef[]> {
  const rows = await queryRows<{ document_id: string; version: number }>(
    db,
    sql`SELECT v.document_id, v.version FROM ${STALE} ORDER BY v.document_id LIMIT ${limit}::int`,
  );
  return rows.map((r) => ({ documentId: r.document_id, version: Number(r.version) }));
}

/**
 * Rebuilds the search vectors and token counts of one version's nodes from their stored text with
 * the current analysis (`reanalysedTokens`), then records `ANALYZER_VERSION` on the version. Safe to
 * repeat: an interrupted run leaves the version marked stale, and the next run does it again.
 */
export async function reanalyseVersion(db: Db, ref: VersionRef): Promise<number> {
  // Paged: a document's text can pass the Data API's 1 MiB result.
  const nodes = await readPaged<StoredNode>(db, {
    columns: sql`id, parent_id AS "parentId", node_type AS "nodeType", title, content, summary,
      metadata->>'context' AS context, metadata->>'kind' AS kind`,
    from: sql`nodes`,
    where: sql`document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`,
    key: sql`id`,
    keyType: 'uuid',
    rowBytes: sql`96 + coalesce(octet_length(title), 0) + coalesce(octet_length(content), 0)
      + coalesce(octet_length(summary), 0) + coalesce(octet_length(metadata->>'context'), 0)`,
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  // A leaf's path is its ancestors' titles, the document's first (as `flattenTree` walks them).
  const pathOf = (node: StoredNode): string[] => {
    const path: string[] = [];
    for (let at = node.parentId ? byId.get(node.parentId) : undefined; at; ) {
      path.unshift(at.title ?? '');
      at = at.parentId ? byId.get(at.parentId) : undefined;
    }
    return path;
  };
  const rows = nodes.map((node) => {
    const tokens = reanalysedTokens(node, pathOf(node));
    return [node.id, tokens.tsvector, tokens.tokenCount, tokens.gramCount] as const;
  });
  for (const batch of byteBatches(rows, parameterBytes)) {
    await db.execute(sql`
      UPDATE nodes SET search_vector = v.search_vector, token_count = v.token_count, gram_count = v.gram_count
      FROM (VALUES ${rowValues(batch, ['uuid', 'tsvector', 'int', 'int'])}) AS v(id, search_vector, token_count, gram_count)
      WHERE nodes.id = v.id`);
  }
  await db.execute(sql`
    UPDATE document_versions SET analyzer_version = ${ANALYZER_VERSION}::int
    WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`);
  return nodes.length;
}

export interface ReanalysisProgress {
  versions: number;
  nodes: number;
  /** Stale versions when the run started (versions that became current meanwhile are done too). */
  total: number;
}

/**
 * Re-analyses every current version an older analysis indexed (`staleVersions`), 20 versions a
 * round, reporting after each; `stopped()` is asked between rounds (a closing runtime). Returns what
 * it did; nothing when the database is up to date.
 *
 * @example await reanalyseStale(db, { onProgress: (p) => log.info('search: re-analysed', { ...p }) });
 */
export async function reanalyseStale(
  db: Db,
  options: { onProgress?: (progress: ReanalysisProgress) => void; stopped?: () => boolean } = {},
): Promise<ReanalysisProgress> {
  const [count] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${STALE}`);
  const progress: ReanalysisProgress = { versions: 0, nodes: 0, total: Number(count?.n ?? 0) };
  while (!options.stopped?.()) {
    const stale = await staleVersions(db, VERSIONS_PER_ROUND);
    if (stale.length === 0) break;
    for (const ref of stale) {
      progress.nodes += await reanalyseVersion(db, ref);
      progress.versions += 1;
    }
    options.onProgress?.({ ...progress });
  }
  return progress;
}
