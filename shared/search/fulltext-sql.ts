import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { buildOrTsquery } from '#shared/index/tsvector.ts';
import type { Bm25Params } from './bm25.ts';
import { scopeCondition } from './scope.ts';
import type { RankedNode, SearchFilters } from './types.ts';

/** The normalizing constant of Postgres' ts_rank (tsrank.c), ~ pi^2 / 6. */
const RANK_CONSTANT = 1.64493406685;

/**
 * The term frequency of one lexeme in `n.search_vector`, read through `ts_rank` (in C, far cheaper
 * than unnesting every candidate's tsvector). With all weights 1 and a one-lexeme query, ts_rank
 * returns (sum over i = 1..tf of 1 / i^2) / 1.64493406685 (tsrank.c, calc_rank_or); as
 * pi^2 / 6 - sum(i <= tf) 1 / i^2 ~ 1 / (tf + 1/2), tf = round(1 / (C - rank * C) - 1/2). Exact for
 * every count a tsvector holds (at most 256 positions per lexeme); 0 when the lexeme is absent.
 */
function termFrequency(term: string): SQL {
  const c = sql`${RANK_CONSTANT}::float8`;
  return sql`round(1 / (${c} - ts_rank('{1,1,1,1}', n.search_vector, ${buildOrTsquery([term])}::tsquery)::float8 * ${c}) - 0.5)`;
}

/**
 * BM25 computed in SQL over the GIN-filtered candidates of the scope (see `bm25Score`): N and avgdl
 * over the scope's leaves, tf per candidate and term, df counted over the candidates (a candidate
 * holds at least one query term, so every leaf containing a term is one). Exact for any filter; its
 * cost grows with the number of candidates, so the unfiltered scope is served from memory instead.
 */
export async function rankFulltextSql(
  db: Db,
  terms: string[],
  filters: SearchFilters,
  limit: number,
  params: Bm25Params,
): Promise<RankedNode[]> {
  const scope = scopeCondition(filters);
  const col = (prefix: string, i: number) => sql.raw(`${prefix}${i}`);
  const tfs = terms.map((term, i) => sql`${termFrequency(term)} AS ${col('tf', i)}`);
  const dfs = terms.map(
    (_, i) => sql`count(*) FILTER (WHERE ${col('tf', i)} > 0)::float8 AS ${col('df', i)}`,
  );
  const k1 = sql`${params.k1}::float8`;
  const b = sql`${params.b}::float8`;
  const parts = terms.map((_, i) => {
    const tf = sql`c.${col('tf', i)}`;
    const df = sql`f.${col('df', i)}`;
    return sql`CASE WHEN ${tf} > 0 THEN ln(1 + (s.n - ${df} + 0.5) / (${df} + 0.5)) * ${tf} * (${k1} + 1)
      / (${tf} + ${k1} * (1 - ${b} + ${b} * c.dl / s.avgdl)) ELSE 0 END`;
  });
  const found = terms.map((term, i) => sql`CASE WHEN c.${col('tf', i)} > 0 THEN ${term}::text END`);
  const rows = await queryRows<{ id: string; score: number; terms: string[] | string }>(
    db,
    sql`WITH s AS (
          SELECT count(*)::float8 AS n,
            CASE WHEN avg(n.token_count) > 0 THEN avg(n.token_count)::float8 ELSE 1 END AS avgdl
          FROM nodes n JOIN documents d ON d.id = n.document_id WHERE ${scope}
        ),
        c AS (
          SELECT n.id, n.token_count::float8 AS dl, ${sql.join(tfs, sql`, `)}
          FROM nodes n JOIN documents d ON d.id = n.document_id
          WHERE ${scope} AND n.search_vector @@ ${buildOrTsquery(terms)}::tsquery
        ),
        f AS (SELECT ${sql.join(dfs, sql`, `)} FROM c)
        SELECT c.id, (${sql.join(parts, sql` + `)}) AS score,
          array_remove(ARRAY[${sql.join(found, sql`, `)}]::text[], NULL) AS terms
        FROM c CROSS JOIN s CROSS JOIN f
        ORDER BY score DESC, c.id
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
