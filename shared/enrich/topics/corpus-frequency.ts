import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { pgArray } from '#shared/search/scope.ts';

/**
 * Records the version's distinct search tokens (`document_versions.terms`, from its nodes'
 * tsvectors), then returns the document frequencies of the given tokens over the other live
 * documents' current versions, one row per document through the GIN index on `terms` (counting
 * matching nodes instead grew with the corpus: ~200 ms a document at 150 documents), and the corpus
 * size counting this document.
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
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM documents
        WHERE current_version IS NOT NULL AND deleted_at IS NULL AND id <> ${documentId}::uuid`,
  );
  const others = Number(count?.n ?? 0);
  if (others === 0 || tokens.length === 0) return { corpusSize: 1, frequency: new Map() };
  const rows = await queryRows<{ token: string; df: number }>(
    db,
    sql`SELECT t.token, count(*)::int AS df
        FROM unnest(${pgArray(tokens)}::text[]) AS t(token)
        JOIN document_versions v ON v.terms @@ quote_literal(t.token)::tsquery
        JOIN documents d ON d.id = v.document_id AND d.current_version = v.version AND d.deleted_at IS NULL
        WHERE v.document_id <> ${documentId}::uuid
        GROUP BY t.token`,
  );
  return { corpusSize: others + 1, frequency: new Map(rows.map((r) => [r.token, Number(r.df)])) };
}
