import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { pgArray } from '#shared/search/scope.ts';

/** Other documents whose tokens are counted: beyond this, a sample of this many. */
export const FREQUENCY_SAMPLE = 200;

/**
 * Records the version's distinct search tokens (`document_versions.terms`, from its nodes'
 * tsvectors), then returns the document frequencies of the given tokens over the other live
 * documents' current versions (at most `FREQUENCY_SAMPLE` of them, one row each: counting matching
 * nodes instead grew with the corpus, ~200 ms a document at 150 documents), and the size of the
 * corpus they were counted in, this document included.
 */
export async function corpusFrequencies(
  db: Db,
  ref: { documentId: string; version: number },
  tokens: string[],
): Promise<{ corpusSize: number; frequency: Map<string, number> }> {
  const { documentId, version } = ref;
  await db.execute(sql`
    UPDATE document_versions v SET terms = (
      SELECT array_to_tsvector(array_agg(DISTINCT u.lexeme)) FROM nodes n, unnest(n.search_vector) AS u
      WHERE n.document_id = v.document_id AND n.version = v.version)
    WHERE v.document_id = ${documentId}::uuid AND v.version = ${version}::int`);
  if (tokens.length === 0) return { corpusSize: 1, frequency: new Map() };
  // The other documents, or a sample of them (ordered by their random ids: an even spread) so the
  // cost stays bounded as the corpus grows; inverse document frequencies hold on a sample.
  const rows = await queryRows<{ token: string; df: number; sampled: number }>(
    db,
    sql`WITH sample AS MATERIALIZED (
          SELECT v.terms FROM documents d
          JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
          WHERE d.deleted_at IS NULL AND d.id <> ${documentId}::uuid AND v.terms IS NOT NULL
          ORDER BY d.id LIMIT ${FREQUENCY_SAMPLE}::int)
        SELECT t.token, (SELECT count(*)::int FROM sample) AS sampled,
          (SELECT count(*)::int FROM sample s WHERE s.terms @@ quote_literal(t.token)::tsquery) AS df
        FROM unnest(${pgArray(tokens)}::text[]) AS t(token)`,
  );
  const sampled = Number(rows[0]?.sampled ?? 0);
  if (sampled === 0) return { corpusSize: 1, frequency: new Map() };
  return { corpusSize: sampled + 1, frequency: new Map(rows.map((r) => [r.token, Number(r.df)])) };
}
