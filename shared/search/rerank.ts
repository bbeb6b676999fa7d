import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { ValidationError } from '#shared/errors.ts';
import { LEAF_TYPES, pgArray } from './scope.ts';
import type { SearchDeps, SearchHit } from './types.ts';

/** Leaves read on each side of a hit for the passage the reranker sees. */
const WINDOW = 1;
/** Passage length cap (characters), well inside the rerank models' input limits. */
const MAX_PASSAGE_CHARS = 2_000;

/**
 * Reorders the first `search.rerank.topN` hits by the configured cross-encoder (docs/spec.md#reranking),
 * each seen as its section path and its window-expanded text (the leaf with one neighbouring leaf
 * on each side); the hits after them keep their order. Reranked hits carry `rerankScore`.
 *
 * @throws ValidationError when no reranker is configured (`search.rerank.kind` is none).
 * @example const hits = await rerankHits(deps, 'what causes X?', await hybridSearch(deps, q, {}, 20));
 */
export async function rerankHits(deps: SearchDeps, query: string, hits: SearchHit[]): Promise<SearchHit[]> {
  if (!deps.reranker) {
    throw new ValidationError(
      'rerank needs a reranker: set search.rerank.kind (bedrock or openai) and its model',
    );
  }
  const head = hits.slice(0, deps.search.rerank.topN);
  if (head.length < 2) return hits;
  const windows = await windowTexts(
    deps.db,
    head.map((hit) => hit.nodeId),
  );
  const passages = head.map((hit) =>
    `${hit.path}\n${windows.get(hit.nodeId) ?? hit.content}`.slice(0, MAX_PASSAGE_CHARS),
  );
  const ranked = await deps.reranker.rerank(query, passages);
  const reordered = ranked.flatMap(({ index, score }) => {
    const hit = head[index];
    return hit ? [{ ...hit, rerankScore: score }] : [];
  });
  return [...reordered, ...hits.slice(head.length)];
}

/** Each hit's text with its neighbouring leaves in the same version, in reading order. */
async function windowTexts(db: Db, nodeIds: string[]): Promise<Map<string, string>> {
  const rows = await queryRows<{ id: string; text: string }>(
    db,
    sql`SELECT h.id, string_agg(n.content, E'\\n' ORDER BY n.ordinal) AS text
        FROM nodes h
        CROSS JOIN LATERAL (
          (SELECT n.content, n.ordinal FROM nodes n
           WHERE n.document_id = h.document_id AND n.version = h.version AND n.ordinal < h.ordinal
             AND n.node_type IN (${sql.raw(LEAF_TYPES.map((t) => `'${t}'`).join(', '))})
           ORDER BY n.ordinal DESC LIMIT ${WINDOW}::int)
          UNION ALL SELECT h.content, h.ordinal
          UNION ALL
          (SELECT n.content, n.ordinal FROM nodes n
           WHERE n.document_id = h.document_id AND n.version = h.version AND n.ordinal > h.ordinal
             AND n.node_type IN (${sql.raw(LEAF_TYPES.map((t) => `'${t}'`).join(', '))})
           ORDER BY n.ordinal LIMIT ${WINDOW}::int)
        ) AS n
        WHERE h.id = ANY(${pgArray(nodeIds)}::uuid[])
        GROUP BY h.id`,
  );
  return new Map(rows.map((row) => [row.id, row.text]));
}
