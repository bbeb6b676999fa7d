import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import type { Embedder } from '#shared/llm/types.ts';
import type { TopicCandidate } from './extract.ts';
import { hasDirection, nearestTopic } from './topic-vectors.ts';

/** One link of a document to a topic. */
export interface TopicLink {
  topicId: string;
  name: string;
  confidence: number;
  /** True when the topic was created for this document, false when it joined an existing one. */
  created: boolean;
}

/**
 * Links a document to its topics, replacing its old links (seed 000 §5.3): each candidate joins the
 * existing topic with the same name or the most similar one at `mergeThreshold` or above (cosine of
 * the name embeddings), or becomes a new topic. Candidates landing on one topic keep the highest
 * confidence. Topics left without any document by the replacement are removed. Serialized by an
 * advisory lock so concurrent documents do not create the same topic twice.
 */
export async function linkDocumentTopics(
  db: Db,
  embedder: Embedder,
  documentId: string,
  candidates: TopicCandidate[],
  mergeThreshold: number,
): Promise<TopicLink[]> {
  const vectors = candidates.length > 0 ? await embedder.embed(candidates.map((c) => c.name)) : [];
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('dropqa:topics'))`);
    const links = new Map<string, TopicLink>();
    for (const [i, candidate] of candidates.entries()) {
      const vector = vectors[i];
      const link = await resolveTopic(tx, embedder, candidate, vector, mergeThreshold);
      const known = links.get(link.topicId);
      if (!known || known.confidence < link.confidence) links.set(link.topicId, link);
    }
    const previous = await queryRows<{ topic_id: string }>(
      tx,
      sql`DELETE FROM document_topics WHERE document_id = ${documentId}::uuid RETURNING topic_id`,
    );
    for (const link of links.values()) {
      await tx.execute(sql`
        INSERT INTO document_topics (document_id, topic_id, confidence)
        VALUES (${documentId}::uuid, ${link.topicId}::uuid, ${link.confidence})`);
    }
    const dropped = previous.map((p) => p.topic_id).filter((id) => !links.has(id));
    for (const id of dropped) {
      await tx.execute(sql`
        DELETE FROM topics t WHERE t.id = ${id}::uuid
          AND NOT EXISTS (SELECT 1 FROM document_topics dt WHERE dt.topic_id = t.id)`);
    }
    return [...links.values()];
  });
}

async function resolveTopic(
  tx: Db,
  embedder: Embedder,
  candidate: TopicCandidate,
  vector: number[] | undefined,
  mergeThreshold: number,
): Promise<TopicLink> {
  const confidence = Math.min(1, Math.max(0, candidate.confidence));
  const [same] = await queryRows<{ id: string; name: string }>(
    tx,
    sql`SELECT id, name FROM topics WHERE lower(name) = lower(${candidate.name}) ORDER BY created_at, id LIMIT 1`,
  );
  if (same) return { topicId: same.id, name: same.name, confidence, created: false };
  if (hasDirection(vector)) {
    const near = await nearestTopic(tx, embedder, vector);
    if (near && near.score >= mergeThreshold)
      return { topicId: near.id, name: near.name, confidence, created: false };
  }
  const [created] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO topics (name, description, embedding, embedding_model)
        VALUES (${candidate.name}, ${candidate.description || null},
          ${hasDirection(vector) ? vectorLiteral(vector) : null}::vector, ${embedder.model})
        RETURNING id`,
  );
  if (!created) throw new Error(`could not create topic ${candidate.name}`);
  return { topicId: created.id, name: candidate.name, confidence, created: true };
}
