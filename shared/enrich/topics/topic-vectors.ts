import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import type { Embedder } from '#shared/llm/types.ts';

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
  const stale = await queryRows<{ id: string; name: string }>(
    db,
    sql`SELECT id, name FROM topics
        WHERE embedding IS NULL OR embedding_model IS DISTINCT FROM ${embedder.model}
          OR vector_dims(embedding) <> ${embedder.dimensions}::int
        ORDER BY created_at, id`,
  );
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

/** The existing topic most similar to a vector (same model and dimensions), with its cosine similarity. */
export async function nearestTopic(
  db: Db,
  embedder: Pick<Embedder, 'model' | 'dimensions'>,
  vector: number[],
): Promise<{ id: string; name: string; score: number } | undefined> {
  const dims = sql.raw(String(embedder.dimensions));
  const literal = vectorLiteral(vector);
  const [row] = await queryRows<{ id: string; name: string; score: number }>(
    db,
    sql`SELECT id, name, 1 - (embedding::vector(${dims}) <=> ${literal}::vector(${dims})) AS score
        FROM topics
        WHERE embedding_model = ${embedder.model} AND vector_dims(embedding) = ${embedder.dimensions}::int
        ORDER BY embedding::vector(${dims}) <=> ${literal}::vector(${dims}), id
        LIMIT 1`,
  );
  return row ? { ...row, score: Number(row.score) } : undefined;
}
