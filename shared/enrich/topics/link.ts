import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { jsonColumn } from '#shared/db/json-column.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { pgArray } from '#shared/search/scope.ts';
import { termOverlap } from '#shared/text/topics.ts';
import type { TopicCandidate } from './extract.ts';
import {
  CREATED_MICROS,
  type TermMatch,
  type TopicChanges,
  type TopicView,
  withTopicMirror,
} from './topic-mirror.ts';
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

/** One document to link (`linkDocumentTopics`). */
export interface TopicLinking {
  documentId: string;
  candidates: TopicCandidate[];
  /** An UPDATE of the document's version, given its links, written with them. */
  record?: (links: TopicLink[]) => SQL;
}

/**
 * Links documents to their topics, one after the other in one transaction, replacing their old
 * links (docs/spec.md#topics): each candidate joins the existing topic that is the same subject at
 * `mergeThreshold` or above, by its terms (`termOverlap`: the same normalised name, a name ending
 * the other, shared words) or by the cosine of the name embeddings, or else becomes a new topic.
 * Candidates landing on one topic keep the highest confidence. A new topic from an offline key
 * phrase also links the other live documents that kept that phrase (`earlierLinks`). Topics left
 * without any document by the replacement are removed. Serialized by an advisory lock so
 * concurrent documents do not create the same topic twice; past the lock and the topics'
 * generation, each document is one statement, or two when earlier documents are linked or topics
 * are left without documents (`writeLinks`, `finishLinks`). Returns each document's links.
 */
export async function linkDocumentTopics(
  db: Db,
  embedder: Embedder,
  documents: readonly TopicLinking[],
  mergeThreshold: number,
  maxPerDocument: number,
): Promise<TopicLink[][]> {
  const vectors: number[][][] = [];
  for (const { candidates } of documents)
    vectors.push(candidates.length > 0 ? await embedder.embed(candidates.map((c) => c.name)) : []);
  return withTopicMirror(db, embedder, (open) =>
    db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('dropqa:topics'))`);
      const existing = await open(tx);
      const links: TopicLink[][] = [];
      for (const [i, document] of documents.entries())
        links.push(
          await linkDocument(tx, embedder, existing, document, vectors[i] ?? [], {
            mergeThreshold,
            maxPerDocument,
          }),
        );
      return links;
    }),
  );
}

/** One document of `linkDocumentTopics`, in its transaction; the view is told what it wrote. */
async function linkDocument(
  tx: Db,
  embedder: Embedder,
  existing: TopicView,
  { documentId, candidates, record }: TopicLinking,
  vectors: number[][],
  { mergeThreshold, maxPerDocument }: { mergeThreshold: number; maxPerDocument: number },
): Promise<TopicLink[]> {
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
  const kept = [...links.values()];
  const written = await writeLinks(tx, embedder, documentId, { created, kept, createdKeys }, record?.(kept));
  const later = earlierLinks(written.earlier, createdKeys, maxPerDocument);
  existing.wrote({ created: written.created, dropped: await finishLinks(tx, later, written.unlinked) });
  return kept;
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

/** What the statement that writes a document's links found: the rest is done from it. */
interface Written {
  created: TopicChanges['created'];
  /** The document's earlier topics it no longer links: orphans unless another document has them. */
  unlinked: string[];
  earlier: EarlierDocument[];
}

/** A live document (not the one being linked) whose current version kept the key phrase of a new topic. */
interface EarlierDocument {
  key: string;
  id: string;
  links: number;
  /** Its topics no other document has (once the document being linked has its new links): [id, confidence]. */
  unshared: [string, number][];
}

/**
 * One statement (data-modifying `WITH` parts, each on rows no other part touches): writes the topics
 * the candidates created, replaces the document's links (its old links not kept are deleted, the
 * kept ones written or their confidence updated), runs `record` (an UPDATE of the document's
 * version), and reads the earlier documents of the new topics' keys with their link counts and
 * unshared topics. Foreign keys are checked at the end of the statement, so links to topics it
 * creates are valid.
 */
async function writeLinks(
  tx: Db,
  embedder: Embedder,
  documentId: string,
  draft: {
    created: readonly CreatedTopic[];
    kept: readonly TopicLink[];
    createdKeys: ReadonlyMap<string, string>;
  },
  record: SQL | undefined,
): Promise<Written> {
  const { created, kept, createdKeys } = draft;
  const keptIds = sql`${pgArray(kept.map((l) => l.topicId))}::uuid[]`;
  const parts: SQL[] = [
    sql`unlinked AS (DELETE FROM document_topics WHERE document_id = ${documentId}::uuid
      AND topic_id <> ALL(${keptIds}) RETURNING topic_id)`,
  ];
  if (created.length > 0) {
    const values = created.map(
      (topic) =>
        sql`(${topic.id}::uuid, ${topic.name}, ${topic.candidate.description || null},
          ${hasDirection(topic.vector) ? vectorLiteral(topic.vector) : null}::vector, ${embedder.model})`,
    );
    parts.push(sql`new_topics AS (INSERT INTO topics (id, name, description, embedding, embedding_model)
      VALUES ${sql.join(values, sql`, `)} RETURNING id, ${CREATED_MICROS} AS created)`);
  }
  if (kept.length > 0)
    parts.push(sql`linked AS (INSERT INTO document_topics (document_id, topic_id, confidence)
      SELECT ${documentId}::uuid, l.topic_id, l.confidence
      FROM unnest(${keptIds}, ${pgArray(kept.map((l) => String(l.confidence)))}::float8[]) AS l(topic_id, confidence)
      ON CONFLICT (document_id, topic_id)
        DO UPDATE SET confidence = excluded.confidence, created_at = excluded.created_at)`);
  if (createdKeys.size > 0)
    parts.push(sql`earlier AS (
      SELECT k.key, d.id, (SELECT count(*) FROM document_topics dt WHERE dt.document_id = d.id)::int AS links,
        (SELECT coalesce(json_agg(json_build_array(dt.topic_id, dt.confidence)), '[]') FROM document_topics dt
          WHERE dt.document_id = d.id AND dt.topic_id <> ALL(${keptIds}) AND NOT EXISTS (
            SELECT 1 FROM document_topics o WHERE o.topic_id = dt.topic_id
              AND o.document_id <> dt.document_id AND o.document_id <> ${documentId}::uuid)) AS unshared
      FROM unnest(${pgArray([...new Set(createdKeys.values())])}::text[]) AS k(key)
      JOIN document_versions v ON v.topic_phrases @> ARRAY[k.key]
      JOIN documents d ON d.id = v.document_id AND v.version = d.current_version
      WHERE d.deleted_at IS NULL AND d.id <> ${documentId}::uuid)`);
  if (record) parts.push(sql`recorded AS (${record})`);
  const [row] = await queryRows<{ created: unknown; unlinked: unknown; earlier: unknown }>(
    tx,
    sql`WITH ${sql.join(parts, sql`, `)}
      SELECT ${created.length > 0 ? sql`(SELECT json_agg(json_build_array(id, created)) FROM new_topics)` : sql`NULL::json`} AS created,
        (SELECT json_agg(topic_id) FROM unlinked) AS unlinked,
        ${createdKeys.size > 0 ? sql`(SELECT json_agg(json_build_array(key, id, links, unshared)) FROM earlier)` : sql`NULL::json`} AS earlier`,
  );
  const at = new Map(
    jsonColumn<[string, number][]>(row?.created as string, []).map(([id, t]) => [id, Number(t)]),
  );
  return {
    created: created.map((topic) => ({
      id: topic.id,
      name: topic.name,
      createdAt: at.get(topic.id) ?? 0,
      ...(topic.vector ? { vector: topic.vector } : {}),
    })),
    unlinked: jsonColumn<string[]>(row?.unlinked as string, []),
    earlier: jsonColumn<[string, string, number, [string, number][]][]>(row?.earlier as string, []).map(
      ([key, id, links, unshared]) => ({ key, id, links: Number(links), unshared }),
    ),
  };
}

/** The links new topics give earlier documents, and the topics those documents give up for them. */
interface LaterLinks {
  added: { documentId: string; topicId: string }[];
  given: string[];
}

/**
 * Topics shared across documents, whichever came first: the earlier documents of each new topic's
 * key phrase are linked to it too. A document that already has `maxPerDocument` topics gives up its
 * weakest topic that no other document has (lowest confidence, then id), or else is left as it is.
 * A new topic is linked to the document being linked, so it is never another's unshared one.
 */
function earlierLinks(
  earlier: readonly EarlierDocument[],
  createdKeys: ReadonlyMap<string, string>,
  maxPerDocument: number,
): LaterLinks {
  const later: LaterLinks = { added: [], given: [] };
  const unshared = new Map(
    earlier.map((doc) => [
      doc.id,
      [...doc.unshared].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    ]),
  );
  const links = new Map(earlier.map((doc) => [doc.id, doc.links]));
  for (const [topicId, key] of createdKeys) {
    for (const doc of earlier) {
      if (doc.key !== key) continue;
      if ((links.get(doc.id) ?? 0) >= maxPerDocument) {
        const weakest = unshared.get(doc.id)?.shift();
        if (!weakest) continue;
        later.given.push(weakest[0]);
      } else links.set(doc.id, (links.get(doc.id) ?? 0) + 1);
      later.added.push({ documentId: doc.id, topicId });
    }
  }
  return later;
}

/**
 * One statement, when there is anything to do: the earlier documents' new links, and the deletion of
 * the topics given up for them (their one link goes with them) and of the document's old topics no
 * document links any more. Returns the topics deleted.
 */
async function finishLinks(tx: Db, later: LaterLinks, unlinked: readonly string[]): Promise<string[]> {
  if (later.added.length === 0 && later.given.length === 0 && unlinked.length === 0) return [];
  const added =
    later.added.length > 0
      ? sql`WITH added AS (INSERT INTO document_topics (document_id, topic_id, confidence)
          SELECT l.document_id, l.topic_id, ${LATER_LINK_CONFIDENCE}::float8
          FROM unnest(${pgArray(later.added.map((a) => a.documentId))}::uuid[],
            ${pgArray(later.added.map((a) => a.topicId))}::uuid[]) AS l(document_id, topic_id)
          ON CONFLICT (document_id, topic_id) DO NOTHING) `
      : sql``;
  const dropped = await queryRows<{ id: string }>(
    tx,
    sql`${added}DELETE FROM topics t WHERE t.id = ANY(${pgArray(later.given)}::uuid[])
      OR (t.id = ANY(${pgArray([...unlinked])}::uuid[])
        AND NOT EXISTS (SELECT 1 FROM document_topics dt WHERE dt.document_id IS NOT NULL AND dt.topic_id = t.id))
      RETURNING t.id`,
  );
  return dropped.map((row) => row.id);
}
