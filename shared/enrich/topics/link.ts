import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import { termOverlap } from '#shared/llm/offline/topics.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { pgArray } from '#shared/search/scope.ts';
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

/** The confidence of a link a later document's topic gives an earlier one whose kept phrases name it. */
const LATER_LINK_CONFIDENCE = 0.5;

/**
 * Links a document to its topics, replacing its old links (docs/spec.md#topics): each candidate
 * joins the existing topic that is the same subject at `mergeThreshold` or above, by its terms
 * (`termOverlap`: the same normalised name, a name ending the other, shared words) or by the cosine
 * of the name embeddings, or else becomes a new topic. Candidates landing on one topic keep the
 * highest confidence. A new topic from an offline key phrase also links the other live documents
 * that kept that phrase (`linkEarlierDocuments`). Topics left without any document by the
 * replacement are removed. Serialized by an advisory lock so concurrent documents do not create the
 * same topic twice.
 */
export async function linkDocumentTopics(
  db: Db,
  embedder: Embedder,
  documentId: string,
  candidates: TopicCandidate[],
  mergeThreshold: number,
  maxPerDocument = candidates.length,
): Promise<TopicLink[]> {
  const vectors = candidates.length > 0 ? await embedder.embed(candidates.map((c) => c.name)) : [];
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('dropqa:topics'))`);
    const existing = await queryRows<{ id: string; name: string }>(
      tx,
      sql`SELECT id, name FROM topics ORDER BY created_at, id`,
    );
    const links = new Map<string, TopicLink>();
    const createdKeys = new Map<string, string>();
    for (const [i, candidate] of candidates.entries()) {
      const link = await resolveTopic(tx, embedder, candidate, vectors[i], mergeThreshold, existing);
      if (link.created) {
        existing.push({ id: link.topicId, name: link.name });
        if (candidate.key) createdKeys.set(link.topicId, candidate.key);
      }
      const known = links.get(link.topicId);
      if (!known || known.confidence < link.confidence) links.set(link.topicId, link);
    }
    const previous = await queryRows<{ topic_id: string }>(
      tx,
      sql`DELETE FROM document_topics WHERE document_id = ${documentId}::uuid RETURNING topic_id`,
    );
    const kept = [...links.values()];
    if (kept.length > 0)
      await tx.execute(sql`
        INSERT INTO document_topics (document_id, topic_id, confidence)
        SELECT ${documentId}::uuid, l.topic_id, l.confidence
        FROM unnest(${pgArray(kept.map((l) => l.topicId))}::uuid[],
          ${pgArray(kept.map((l) => String(l.confidence)))}::float8[]) AS l(topic_id, confidence)`);
    await dropOrphans(
      tx,
      previous.map((p) => p.topic_id).filter((id) => !links.has(id)),
    );
    for (const [topicId, key] of createdKeys)
      await linkEarlierDocuments(tx, documentId, topicId, key, maxPerDocument);
    return [...links.values()];
  });
}

async function resolveTopic(
  tx: Db,
  embedder: Embedder,
  candidate: TopicCandidate,
  vector: number[] | undefined,
  mergeThreshold: number,
  existing: { id: string; name: string }[],
): Promise<TopicLink> {
  const confidence = Math.min(1, Math.max(0, candidate.confidence));
  let same: { id: string; name: string; score: number } | undefined;
  for (const topic of existing) {
    const score = termOverlap(topic.name, candidate.name);
    if (score >= mergeThreshold && score > (same?.score ?? 0)) same = { ...topic, score };
  }
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

/**
 * Topics shared across documents, whichever came first: the live documents (other than the one
 * being linked) whose current version kept the key phrase of a newly created topic
 * (`document_versions.topic_phrases`) are linked to it too. A document that already has
 * `maxPerDocument` topics gives up its weakest topic that no other document has, or else is left as
 * it is.
 */
async function linkEarlierDocuments(
  tx: Db,
  documentId: string,
  topicId: string,
  key: string,
  maxPerDocument: number,
): Promise<void> {
  const earlier = await queryRows<{ id: string; links: number }>(
    tx,
    sql`SELECT d.id, (SELECT count(*) FROM document_topics dt WHERE dt.document_id = d.id)::int AS links
        FROM document_versions v JOIN documents d ON d.id = v.document_id AND v.version = d.current_version
        WHERE v.topic_phrases @> ${pgArray([key])}::text[] AND d.deleted_at IS NULL
          AND d.id <> ${documentId}::uuid`,
  );
  for (const doc of earlier) {
    if (Number(doc.links) >= maxPerDocument) {
      const [weakest] = await queryRows<{ topic_id: string }>(
        tx,
        sql`DELETE FROM document_topics WHERE (document_id, topic_id) IN (
              SELECT dt.document_id, dt.topic_id FROM document_topics dt
              WHERE dt.document_id = ${doc.id}::uuid AND NOT EXISTS (
                SELECT 1 FROM document_topics o WHERE o.topic_id = dt.topic_id AND o.document_id <> dt.document_id)
              ORDER BY dt.confidence, dt.topic_id LIMIT 1)
            RETURNING topic_id`,
      );
      if (!weakest) continue;
      await dropOrphans(tx, [weakest.topic_id]);
    }
    await tx.execute(sql`
      INSERT INTO document_topics (document_id, topic_id, confidence)
      VALUES (${doc.id}::uuid, ${topicId}::uuid, ${LATER_LINK_CONFIDENCE})
      ON CONFLICT (document_id, topic_id) DO NOTHING`);
  }
}

/** Deletes those of the topics no document links any more. */
async function dropOrphans(tx: Db, topicIds: string[]): Promise<void> {
  if (topicIds.length === 0) return;
  await tx.execute(sql`
    DELETE FROM topics t WHERE t.id = ANY(${pgArray(topicIds)}::uuid[])
      AND NOT EXISTS (SELECT 1 FROM document_topics dt WHERE dt.document_id IS NOT NULL AND dt.topic_id = t.id)`);
}
