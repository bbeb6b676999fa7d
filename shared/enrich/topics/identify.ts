import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { queryRows } from '#shared/db/client.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import { ProviderError, reasonOf } from '#shared/errors.ts';
import type { Providers } from '#shared/llm/types.ts';
import { hasDirection } from './topic-vectors.ts';

/** A topic a question is about, with the cosine similarity of the question to its name. */
export interface QuestionTopic {
  id: string;
  name: string;
  description: string | null;
  score: number;
  documents: number;
}

/**
 * The topics a question is about (seed 000 §5.3.2): the `topK` topics whose name embedding is
 * closest to the question's, at `minScore` similarity or above, best first. Only topics embedded by
 * the current embedder are compared.
 *
 * @example const topics = await identifyQuestionTopics(db, providers, '预算是多少？'); // [{ name: '预算', score: 0.41, ... }]
 */
export async function identifyQuestionTopics(
  db: Db,
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
  if (!hasDirection(vector)) return [];
  const dims = sql.raw(String(embedder.dimensions));
  const literal = vectorLiteral(vector);
  const rows = await queryRows<QuestionTopic>(
    db,
    sql`SELECT t.id, t.name, t.description,
          1 - (t.embedding::vector(${dims}) <=> ${literal}::vector(${dims})) AS score,
          (SELECT count(*)::int FROM document_topics dt WHERE dt.topic_id = t.id) AS documents
        FROM topics t
        WHERE t.embedding_model = ${embedder.model} AND vector_dims(t.embedding) = ${embedder.dimensions}::int
        ORDER BY t.embedding::vector(${dims}) <=> ${literal}::vector(${dims}), t.id
        LIMIT ${options.topK ?? 3}::int`,
  );
  const minScore = options.minScore ?? 0.1;
  return rows
    .map((row) => ({ ...row, score: Number(row.score), documents: Number(row.documents) }))
    .filter((row) => row.score >= minScore);
}
