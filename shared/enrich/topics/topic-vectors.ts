import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { pgArray } from '#shared/search/scope.ts';

/** A vector with a direction (the hashing embedder maps text without letters to zero). */
export function hasDirection(vector: readonly number[] | undefined): vector is number[] {
  return !!vector?.some((x) => x !== 0);
}

/**
 * Per database: the embedder (`model/dimensions`) its topics were last brought to, and when. Topics
 * created since carry that embedder's vectors, so the look is repeated for another embedder or
 * after `FRESH_TTL_MS` (another process may have written topics since), not per document.
 */
const refreshed = new WeakMap<Db, { embedder: string; at: number }>();
const FRESH_TTL_MS = 60_000;

/**
 * Re-embeds, in batches, the names of the topics whose vector is missing or from another embedder,
 * so topics are only ever compared with vectors of the current model and dimensions.
 */
export async function refreshTopicVectors(db: Db, embedder: Embedder, batchSize: number): Promise<number> {
  const embedderKey = `${embedder.model}/${embedder.dimensions}`;
  const last = refreshed.get(db);
  if (last?.embedder === embedderKey && Date.now() - last.at < FRESH_TTL_MS) return 0;
  // Paged: after a change of embedder every topic is stale.
  const stale = await readPaged<{ id: string; name: string }>(db, {
    columns: sql`id, name`,
    from: sql`topics`,
    where: sql`embedding IS NULL OR embedding_model IS DISTINCT FROM ${embedder.model}
      OR vector_dims(embedding) <> ${embedder.dimensions}::int`,
    key: sql`id`,
    keyType: 'uuid',
    rowBytes: sql`64 + octet_length(name)`,
  });
  const step = Math.max(1, batchSize);
  for (let start = 0; start < stale.length; start += step) {
    const batch = stale.slice(start, start + step);
    const vectors = await embedder.embed(batch.map((t) => t.name));
    for (const [i, topic] of batch.entries()) {
      const vector = vectors[i];
      await db.execute(sql`
        UPDATE topics SET embedding = ${hasDirection(vector) ? vectorLiteral(vector) : null}::vector,
          embedding_model = ${embedder.model}
        WHERE id = ${topic.id}::uuid`);
    }
  }
  refreshed.set(db, { embedder: embedderKey, at: Date.now() });
  return stale.length;
}

/** A topic (or another candidate) near a candidate's vector: cosine distance, and similarity (1 - distance). */
export interface Near {
  id: string;
  name: string;
  distance: number;
  score: number;
}

/** What `nearestTopics` finds for a list of candidate vectors. */
export interface Nearness {
  /** By candidate index: the existing topic nearest to it (same model and dimensions), if any. */
  nearest: (Near | undefined)[];
  /** The distance and similarity between candidates `j < i`, keyed `j i`: for topics the list creates. */
  between: Map<string, { distance: number; score: number }>;
}

/**
 * In one statement: for each candidate vector with a direction, the existing topic nearest to it
 * (by cosine distance, then id, as an index-less scan orders them), and the distances between the
 * candidates themselves, so a candidate can be compared with the topics the ones before it create
 * without writing them first. pgvector computes both, so they equal what a query against the
 * written topics would give. With `among`, only those topics are looked at.
 */
export async function nearestTopics(
  db: Db,
  embedder: Pick<Embedder, 'model' | 'dimensions'>,
  vectors: readonly (number[] | undefined)[],
  among?: readonly string[],
): Promise<Nearness> {
  const nearness: Nearness = { nearest: vectors.map(() => undefined), between: new Map() };
  const given = vectors.flatMap((vector, i) =>
    hasDirection(vector) ? [{ i, literal: vectorLiteral(vector) }] : [],
  );
  if (given.length === 0) return nearness;
  const dims = sql.raw(String(embedder.dimensions));
  const rows = await queryRows<{
    i: number;
    j: number | null;
    id: string | null;
    name: string | null;
    distance: number;
  }>(
    db,
    sql`WITH c AS (
          SELECT i, v::vector(${dims}) AS v
          FROM unnest(${pgArray(given.map((g) => String(g.i)))}::int[], ${pgArray(given.map((g) => g.literal))}::text[]) AS c(i, v)
        )
        SELECT c.i, NULL::int AS j, n.id, n.name, n.distance FROM c CROSS JOIN LATERAL (
          SELECT id, name, embedding::vector(${dims}) <=> c.v AS distance FROM topics
          WHERE embedding_model = ${embedder.model} AND vector_dims(embedding) = ${embedder.dimensions}::int${
            among ? sql` AND id = ANY(${pgArray([...among])}::uuid[])` : sql``
          }
          ORDER BY embedding::vector(${dims}) <=> c.v, id
          LIMIT 1
        ) n
        UNION ALL
        SELECT b.i, a.i AS j, NULL, NULL, a.v <=> b.v FROM c a JOIN c b ON a.i < b.i`,
  );
  for (const row of rows) {
    const distance = Number(row.distance);
    if (row.j === null) {
      nearness.nearest[Number(row.i)] = {
        id: String(row.id),
        name: String(row.name),
        distance,
        score: 1 - distance,
      };
    } else nearness.between.set(`${row.j} ${row.i}`, { distance, score: 1 - distance });
  }
  return nearness;
}
