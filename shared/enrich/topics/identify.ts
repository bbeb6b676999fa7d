import { sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition } from '#shared/access/scope.ts';
import type { Db } from '#shared/db/client.ts';
import { queryRows } from '#shared/db/client.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import { ProviderError, reasonOf } from '#shared/errors.ts';
import { isLexicalEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import type { Providers } from '#shared/llm/types.ts';
import { pgArray } from '#shared/search/scope.ts';
import { segment } from '#shared/text/segment.ts';
import { isStopWord } from '#shared/text/stop-words.ts';
import { hasDirection } from './topic-vectors.ts';

/** A topic a question is about, with the cosine similarity of the question to its name. */
export interface QuestionTopic {
  id: string;
  name: string;
  description: string | null;
  score: number;
  documents: number;
}

/** A topic named in the question counts when the question holds this share of its words. */
const NAMED_SHARE = 0.66;
/** Topics whose names share a word with the question, looked at. */
const NAMED_CANDIDATES = 200;

/**
 * The topics a question is about (docs/spec.md#question-topics), best first, `topK` of them, each
 * with a document the asker may read (`access`: a topic only another team's documents formed is
 * none of theirs): the
 * topics the question names (the share of a topic name's search tokens the question contains, from
 * `NAMED_SHARE`: "Borealis" in "What did Borealis cost?", 数据平台 in 数据平台的预算), which works
 * without a model, and the topics whose name embedding is closest to the question's, at `minScore`
 * similarity or above (only topics embedded by the current embedder are compared; with the offline
 * hashing embedder only topics sharing a word with the question: "Zhang" is no topic of a question
 * about an airport however the hashes fall). A topic found both ways keeps the higher score.
 *
 * @example const topics = await identifyQuestionTopics(db, ALL_COLLECTIONS, providers, '预算是多少？'); // [{ name: '预算', score: 0.41, ... }]
 */
export async function identifyQuestionTopics(
  db: Db,
  access: AccessScope,
  providers: Pick<Providers, 'embedder'>,
  question: string,
  options: { topK?: number; minScore?: number } = {},
): Promise<QuestionTopic[]> {
  const { embedder } = providers;
  let vector: number[] | undefined;
  try {
    [vector] = await embedder.embed([question], { purpose: 'query' });
  } catch (error) {
    throw new ProviderError(`embedder ${embedder.model} failed on the question: ${reasonOf(error)}`, {
      cause: error,
    });
  }
  const named = await namedTopics(db, access, question);
  if (!hasDirection(vector)) return named.slice(0, options.topK ?? 3);
  const dims = sql.raw(String(embedder.dimensions));
  const literal = vectorLiteral(vector);
  const rows = await queryRows<QuestionTopic>(
    db,
    sql`SELECT * FROM (
          SELECT t.id, t.name, t.description,
            1 - (t.embedding::vector(${dims}) <=> ${literal}::vector(${dims})) AS score,
            ${readableDocuments(access)} AS documents
          FROM topics t
          WHERE t.embedding_model = ${embedder.model} AND vector_dims(t.embedding) = ${embedder.dimensions}::int
          ORDER BY t.embedding::vector(${dims}) <=> ${literal}::vector(${dims}), t.id
          LIMIT ${NEAR_CANDIDATES}::int) near
        WHERE documents > 0 ORDER BY score DESC, id LIMIT ${options.topK ?? 3}::int`,
  );
  const minScore = options.minScore ?? 0.1;
  const asked = isLexicalEmbedder(embedder) ? new Set(segment(question.toLowerCase())) : undefined;
  const near = rows
    .map((row) => ({ ...row, score: Number(row.score), documents: Number(row.documents) }))
    .filter((row) => row.score >= minScore)
    .filter((row) => !asked || segment(row.name.toLowerCase()).some((t) => asked.has(t) && !isStopWord(t)));
  const best = new Map<string, QuestionTopic>();
  for (const topic of [...named, ...near]) {
    const known = best.get(topic.id);
    if (!known || known.score < topic.score) best.set(topic.id, topic);
  }
  return [...best.values()]
    .sort((a, b) => b.score - a.score || b.documents - a.documents || (a.name < b.name ? -1 : 1))
    .slice(0, options.topK ?? 3);
}

/** Topics nearest the question looked at, of which those with a readable document count. */
const NEAR_CANDIDATES = 50;

/**
 * A topic's live documents the asker may read (`t` is the topic), as a SQL count. Each link's
 * document is looked up by its key: as a join, the planner hashed every document for each topic
 * counted (290 ms for 50 topics at 10,000 documents).
 */
function readableDocuments(access: AccessScope) {
  return sql`(SELECT count(*)::int FROM document_topics dt WHERE dt.topic_id = t.id
            AND (SELECT d.deleted_at IS NULL AND ${collectionCondition(access, sql`d.collection`)}
                 FROM documents d WHERE d.id = dt.document_id))`;
}

/** The topics whose names the question holds (at least `NAMED_SHARE` of their tokens), best first. */
async function namedTopics(db: Db, access: AccessScope, question: string): Promise<QuestionTopic[]> {
  const asked = new Set(segment(question));
  const words = [...asked].filter((t) => [...t].length >= 2 && !isStopWord(t));
  if (words.length === 0) return [];
  const patterns = words.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const rows = await queryRows<Omit<QuestionTopic, 'score'>>(
    db,
    sql`SELECT t.id, t.name, t.description, ${readableDocuments(access)} AS documents
        FROM topics t WHERE t.name ILIKE ANY(${pgArray(patterns)}::text[])
        ORDER BY t.id LIMIT ${NAMED_CANDIDATES}::int`,
  );
  return rows
    .map((row) => {
      const tokens = [...new Set(segment(row.name))];
      const found = tokens.filter((t) => asked.has(t)).length;
      return { ...row, documents: Number(row.documents), score: tokens.length ? found / tokens.length : 0 };
    })
    .filter((row) => row.score >= NAMED_SHARE && row.documents > 0)
    .sort((a, b) => b.score - a.score || b.documents - a.documents || (a.name < b.name ? -1 : 1));
}
