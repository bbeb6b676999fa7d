import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { buildOrTsquery } from '#shared/index/tsvector.ts';
import type { Bm25Params } from './bm25.ts';
import { pgArray, scopeCondition } from './scope.ts';
import type { RankedNode, SearchFilters } from './types.ts';

/**
 * BM25 computed in SQL over the GIN-filtered candidates of the scope (see `bm25Score`): N and avgdl
 * over the scope's leaves, df and tf from the candidates' tsvectors (a candidate holds at least one
 * query term, so every leaf containing a term is a candidate). Exact for any filter; its cost grows
 * with the number of candidates, so the unfiltered scope is served from memory instead.
 */
export async function rankFulltextSql(
  db: Db,
  terms: string[],
  filters: SearchFilters,
  limit: number,
  params: Bm25Params,
): Promise<RankedNode[]> {
  const scope = scopeCondition(filters);
  const rows = await queryRows<{ id: string; score: number; terms: string[] | string }>(
    db,
    sql`WITH s AS (
          SELECT count(*)::float8 AS n, coalesce(avg(n.token_count), 0)::float8 AS avgdl
          FROM nodes n JOIN documents d ON d.id = n.document_id WHERE ${scope}
        ),
        c AS (
          SELECT n.id, n.token_count::float8 AS dl, n.search_vector
          FROM nodes n JOIN documents d ON d.id = n.document_id
          WHERE ${scope} AND n.search_vector @@ ${buildOrTsquery(terms)}::tsquery
        ),
        t AS (
          SELECT c.id, c.dl, u.lexeme, greatest(coalesce(cardinality(u.positions), 0), 1)::float8 AS tf
          FROM c CROSS JOIN LATERAL unnest(c.search_vector) u
          WHERE u.lexeme = ANY(${pgArray(terms)}::text[])
        ),
        f AS (SELECT lexeme, count(*)::float8 AS df FROM t GROUP BY lexeme)
        SELECT t.id,
          sum(ln(1 + (s.n - f.df + 0.5) / (f.df + 0.5)) * t.tf * (${params.k1}::float8 + 1)
            / (t.tf + ${params.k1}::float8 * (1 - ${params.b}::float8
               + ${params.b}::float8 * t.dl / CASE WHEN s.avgdl > 0 THEN s.avgdl ELSE 1 END))) AS score,
          array_agg(t.lexeme ORDER BY t.lexeme) AS terms
        FROM t JOIN f USING (lexeme) CROSS JOIN s
        GROUP BY t.id
        ORDER BY score DESC, t.id
        LIMIT ${limit}::int`,
  );
  return rows.map((row) => ({
    nodeId: row.id,
    score: Number(row.score),
    highlights: Array.isArray(row.terms) ? row.terms : parseTextArray(row.terms),
  }));
}

/** A driver that leaves `text[]` unparsed returns `{a,"b c"}`. */
function parseTextArray(text: string): string[] {
  const inner = text.replace(/^\{|\}$/g, '');
  if (!inner) return [];
  return [...inner.matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? ''),
  );
}
