import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import { ProviderError, reasonOf } from '#shared/errors.ts';
import { vectorExpression, vectorPredicate } from '#shared/index/vector-index.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { type QueryRanker, searchBy } from './hydrate.ts';
import { pgArray, scopeCondition, validateFilters } from './scope.ts';
import { tieOrder } from './tie-break.ts';
import type { RankedNode, SearchDeps, SearchFilters } from './types.ts';

/** The ranking of `semanticSearch` without loading the hits' details. */
export const rankSemantic: QueryRanker = async (deps, query, filters, limit, signal) => {
  validateFilters(filters);
  if (limit < 1 || !query.trim()) return [];
  const vector = await embedQuery(deps.embedder, query);
  signal?.throwIfAborted();
  return rankByVector(deps, vector, filters, limit);
};

/**
 * Semantic search: the query embedded with the configured embedder, then a k-nearest-neighbour
 * search by cosine distance through the embedder's HNSW index, scope and filters applied in the same
 * query (pgvector's iterative index scan keeps reading the index until enough rows pass them, so old
 * versions and deleted documents never take a place). Score = cosine similarity (1 - distance).
 *
 * @example await semanticSearch(deps, '这个项目花了多少钱', {}, 5)
 */
export const semanticSearch = searchBy(rankSemantic);

/** k-NN for an already embedded query (a pgvector literal from `embedQuery`; undefined finds nothing). */
export async function rankByVector(
  deps: SearchDeps,
  vector: string | undefined,
  filters: SearchFilters,
  limit: number,
): Promise<RankedNode[]> {
  if (!vector || limit < 1) return [];
  const { db, embedder } = deps;
  const distance = sql`${sql.raw(vectorExpression(embedder.dimensions, 'e.embedding'))} <=> ${vector}::vector(${sql.raw(String(embedder.dimensions))})`;
  const efSearch = Math.max(deps.search.hnsw.efSearch, limit);
  const rows = await db.transaction(async (tx) => {
    // Transaction-local, so a pooled connection does not keep them.
    await tx.execute(
      sql`SELECT set_config('hnsw.ef_search', ${String(efSearch)}, true), set_config('hnsw.iterative_scan', 'strict_order', true)`,
    );
    // The nearest by the index's order (only ORDER BY distance can use it), then equal scores ordered.
    return queryRows<{ id: string; key: string; ordinal: number; score: number }>(
      tx as unknown as Db,
      sql`SELECT r.id, r.key, r.ordinal, r.score FROM (
            SELECT e.node_id AS id, d.key, n.ordinal, 1 - (${distance}) AS score
            FROM embeddings e
            JOIN nodes n ON n.id = e.node_id
            JOIN documents d ON d.id = n.document_id
            WHERE ${sql.raw(vectorPredicate(embedder, 'e'))} AND ${scopeCondition(deps.access, filters)}
            ORDER BY ${distance}
            LIMIT ${limit}::int
          ) r
          ORDER BY r.score DESC, ${tieOrder('r')}`,
    );
  });
  return rows.map((row) => ({
    nodeId: row.id,
    documentKey: row.key,
    ordinal: Number(row.ordinal),
    score: Number(row.score),
    relevance: Number(row.score),
  }));
}

/**
 * Cosine similarity between an embedded query (`embedQuery`) and each of the given nodes that has a
 * vector of the embedder's model, for results found another way.
 */
export async function cosineSimilarities(
  db: Db,
  embedder: Embedder,
  vector: string | undefined,
  nodeIds: string[],
): Promise<Map<string, number>> {
  if (!vector || nodeIds.length === 0) return new Map();
  const rows = await queryRows<{ id: string; score: number }>(
    db,
    sql`SELECT e.node_id AS id,
          1 - (${sql.raw(vectorExpression(embedder.dimensions, 'e.embedding'))} <=> ${vector}::vector(${sql.raw(String(embedder.dimensions))})) AS score
        FROM embeddings e
        WHERE ${sql.raw(vectorPredicate(embedder, 'e'))} AND e.node_id = ANY(${pgArray(nodeIds)}::uuid[])`,
  );
  return new Map(rows.map((row) => [row.id, Number(row.score)]));
}

/** The query's vector as a pgvector literal, or undefined when it is the zero vector (no direction). */
export async function embedQuery(embedder: Embedder, query: string): Promise<string | undefined> {
  let vectors: number[][];
  try {
    vectors = await embedder.embed([query]);
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw new ProviderError(`embedder ${embedder.model} failed on the query: ${reasonOf(error)}`, {
      cause: error,
    });
  }
  const [vector] = vectors;
  if (!vector || vector.length !== embedder.dimensions) {
    throw new ProviderError(
      `embedder ${embedder.model} returned no ${embedder.dimensions}-dimension vector for the query`,
    );
  }
  return vector.some((x) => x !== 0) ? vectorLiteral(vector) : undefined;
}
