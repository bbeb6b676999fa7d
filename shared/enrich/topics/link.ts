import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { pgArray } from '#shared/search/scope.ts';
import { termOverlap } from '#shared/text/topics.ts';
import type { TopicCandidate } from './extract.ts';
import { CREATED_MICROS, type TermMatch, type TopicChanges, withTopicMirror } from './topic-mirror.ts';
import { hasDirection, type Near, type Nearness } from './topic-vectors.ts';

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
  return withTopicMirror(db, embedder, (open) =>
    db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('dropqa:topics'))`);
      const existing = await open(tx);
      // Each candidate's best match by terms among the existing topics; one matched there never needs
      // the nearest vector, so the others' are looked up together, before any topic is created.
      const byTerms = candidates.map((candidate) => existing.sameByTerms(candidate.name, mergeThreshold));
      const nearness = await existing.nearest(
        vectors.map((vector, i) => (byTerms[i] ? undefined : vector)),
        mergeThreshold,
      );
      const links = new Map<string, TopicLink>();
      const createdKeys = new Map<string, string>();
      const created: CreatedTopic[] = [];
      for (const [i, candidate] of candidates.entries()) {
        const confidence = Math.min(1, Math.max(0, candidate.confidence));
        const link = resolveTopic(i, candidate, byTerms[i], created, nearness, hasDirection(vectors[i]), {
          confidence,
          mergeThreshold,
        });
        if (link.created) {
          created.push({ index: i, id: link.topicId, name: link.name, candidate, vector: vectors[i] });
          if (candidate.key) createdKeys.set(link.topicId, candidate.key);
        }
        const known = links.get(link.topicId);
        if (!known || known.confidence < link.confidence) links.set(link.topicId, link);
      }
      const changes: TopicChanges = { created: await insertTopics(tx, embedder, created), dropped: [] };
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
      // Orphans are looked for once every link is replaced, the earlier documents' too.
      const unlinked = previous.map((p) => p.topic_id).filter((id) => !links.has(id));
      unlinked.push(...(await linkEarlierDocuments(tx, documentId, createdKeys, maxPerDocument)));
      await dropOrphans(tx, unlinked, changes);
      return { result: [...links.values()], changes };
    }),
  );
}

/** A topic a candidate creates, written once every candidate is resolved. */
interface CreatedTopic {
  /** The candidate's index. */
  index: number;
  id: string;
  name: string;
  candidate: TopicCandidate;
  vector: number[] | undefined;
}

/** The topic of `topics` (in order; the first of equals) whose terms best match `name`, at `mergeThreshold` or above. */
function sameByTerms(
  topics: readonly { id: string; name: string }[],
  name: string,
  mergeThreshold: number,
  best?: TermMatch,
): TermMatch | undefined {
  let same = best;
  for (const topic of topics) {
    const score = termOverlap(topic.name, name);
    if (score >= mergeThreshold && score > (same?.score ?? 0))
      same = { id: topic.id, name: topic.name, score };
  }
  return same;
}

/**
 * Where candidate `i` goes, as if each topic created before it were already written: the best term
 * match among the existing topics and those created, else the nearest vector among them (distance,
 * then id) at `mergeThreshold` or above, else a new topic.
 */
function resolveTopic(
  i: number,
  candidate: TopicCandidate,
  existingByTerms: TermMatch | undefined,
  created: readonly CreatedTopic[],
  nearness: Nearness,
  directed: boolean,
  { confidence, mergeThreshold }: { confidence: number; mergeThreshold: number },
): TopicLink {
  const same = sameByTerms(created, candidate.name, mergeThreshold, existingByTerms);
  if (same) return { topicId: same.id, name: same.name, confidence, created: false };
  if (directed) {
    let near: Near | undefined = nearness.nearest[i];
    for (const topic of created) {
      const between = nearness.between.get(`${topic.index} ${i}`);
      if (!between) continue;
      if (
        !near ||
        between.distance < near.distance ||
        (between.distance === near.distance && topic.id < near.id)
      )
        near = { id: topic.id, name: topic.name, ...between };
    }
    if (near && near.score >= mergeThreshold)
      return { topicId: near.id, name: near.name, confidence, created: false };
  }
  return { topicId: randomUUID(), name: candidate.name, confidence, created: true };
}

/** Writes the topics the candidates created, in one statement; returns them as the mirror holds them. */
async function insertTopics(
  tx: Db,
  embedder: Embedder,
  created: readonly CreatedTopic[],
): Promise<TopicChanges['created']> {
  if (created.length === 0) return [];
  const values = created.map(
    (topic) =>
      sql`(${topic.id}::uuid, ${topic.name}, ${topic.candidate.description || null},
        ${hasDirection(topic.vector) ? vectorLiteral(topic.vector) : null}::vector, ${embedder.model})`,
  );
  const rows = await queryRows<{ id: string; created: number | string }>(
    tx,
    sql`INSERT INTO topics (id, name, description, embedding, embedding_model) VALUES ${sql.join(values, sql`, `)}
        RETURNING id, ${CREATED_MICROS} AS created`,
  );
  const at = new Map(rows.map((row) => [row.id, Number(row.created)]));
  return created.map((topic) => ({
    id: topic.id,
    name: topic.name,
    createdAt: at.get(topic.id) ?? 0,
    ...(topic.vector ? { vector: topic.vector } : {}),
  }));
}

/**
 * Topics shared across documents, whichever came first: the live documents (other than the one
 * being linked) whose current version kept the key phrase of a newly created topic
 * (`document_versions.topic_phrases`) are linked to it too. A document that already has
 * `maxPerDocument` topics gives up its weakest topic that no other document has, or else is left as
 * it is. The documents of every new topic are found in one statement; their link counts are then
 * kept here as links are added, and the links are written in one statement at the end (a new
 * topic is linked to the document being linked, so it is never another's weakest unshared one).
 * Returns the topics given up, for `dropOrphans`.
 */
async function linkEarlierDocuments(
  tx: Db,
  documentId: string,
  createdKeys: ReadonlyMap<string, string>,
  maxPerDocument: number,
): Promise<string[]> {
  if (createdKeys.size === 0) return [];
  const keys = [...new Set(createdKeys.values())];
  const earlier = await queryRows<{ key: string; id: string; links: number }>(
    tx,
    sql`SELECT k.key, d.id, (SELECT count(*) FROM document_topics dt WHERE dt.document_id = d.id)::int AS links
        FROM unnest(${pgArray(keys)}::text[]) AS k(key)
        JOIN document_versions v ON v.topic_phrases @> ARRAY[k.key]
        JOIN documents d ON d.id = v.document_id AND v.version = d.current_version
        WHERE d.deleted_at IS NULL AND d.id <> ${documentId}::uuid`,
  );
  const links = new Map(earlier.map((doc) => [doc.id, Number(doc.links)]));
  const given: string[] = [];
  const added: { documentId: string; topicId: string }[] = [];
  for (const [topicId, key] of createdKeys) {
    for (const doc of earlier) {
      if (doc.key !== key) continue;
      if ((links.get(doc.id) ?? 0) >= maxPerDocument) {
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
        given.push(weakest.topic_id);
      } else links.set(doc.id, (links.get(doc.id) ?? 0) + 1);
      added.push({ documentId: doc.id, topicId });
    }
  }
  if (added.length > 0)
    await tx.execute(sql`
      INSERT INTO document_topics (document_id, topic_id, confidence)
      SELECT l.document_id, l.topic_id, ${LATER_LINK_CONFIDENCE}::float8
      FROM unnest(${pgArray(added.map((a) => a.documentId))}::uuid[],
        ${pgArray(added.map((a) => a.topicId))}::uuid[]) AS l(document_id, topic_id)
      ON CONFLICT (document_id, topic_id) DO NOTHING`);
  return given;
}

/** Deletes those of the topics no document links any more (recorded in `changes.dropped`). */
async function dropOrphans(tx: Db, topicIds: string[], changes: TopicChanges): Promise<void> {
  if (topicIds.length === 0) return;
  const dropped = await queryRows<{ id: string }>(
    tx,
    sql`DELETE FROM topics t WHERE t.id = ANY(${pgArray(topicIds)}::uuid[])
      AND NOT EXISTS (SELECT 1 FROM document_topics dt WHERE dt.document_id IS NOT NULL AND dt.topic_id = t.id)
      RETURNING t.id`,
  );
  changes.dropped.push(...dropped.map((row) => row.id));
}
