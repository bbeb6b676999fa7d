import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { pgArray } from '#shared/search/scope.ts';

/**
 * Document frequencies of the given tokens over the other live documents' current versions (through
 * the GIN index on the tsvectors), and the corpus size counting this document.
 */
export async function corpusFrequencies(
  db: Db,
  documentId: string,
  tokens: string[],
): Promise<{ corpusSize: number; frequency: Map<string, number> }> {
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM documents
        WHERE current_version IS NOT NULL AND deleted_at IS NULL AND id <> ${documentId}::uuid`,
  );
  const others = Number(count?.n ?? 0);
  if (others === 0 || tokens.length === 0) return { corpusSize: 1, frequency: new Map() };
  const rows = await queryRows<{ token: string; df: number }>(
    db,
    sql`SELECT t.token, count(DISTINCT n.document_id)::int AS df
        FROM unnest(${pgArray(tokens)}::text[]) AS t(token)
        JOIN nodes n ON n.search_vector @@ quote_literal(t.token)::tsquery
        JOIN documents d ON d.id = n.document_id AND d.current_version = n.version AND d.deleted_at IS NULL
        WHERE n.document_id <> ${documentId}::uuid
        GROUP BY t.token`,
  );
  return { corpusSize: others + 1, frequency: new Map(rows.map((r) => [r.token, Number(r.df)])) };
}
