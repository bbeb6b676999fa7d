import { type SQL, sql } from 'drizzle-orm';
import type { AccessScope } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { buildOrTsquery } from '#shared/index/tsvector.ts';
import { type Bm25Params, distinctTerms, type QueryTerm, termField } from './bm25.ts';
import { scopeCondition } from './scope.ts';
import { tieOrder } from './tie-break.ts';
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
function termFrequency(vector: SQL, term: string): SQL {
  const c = sql`${RANK_CONSTANT}::float8`;
  return sql`round(1 / (${c} - ts_rank('{1,1,1,1}', ${vector}, ${buildOrTsquery([term])}::tsquery)::float8 * ${c}) - 0.5)`;
}

/** Occurrences of the term, those in the title or section path (weight A) counted `titleWeight` times. */
function weightedTermFrequency(term: string, titleWeight: number): SQL {
  const all = termFrequency(sql`n.search_vector`, term);
  if (titleWeight === 1) return all;
  const title = termFrequency(sql`ts_filter(n.search_vector, '{a}')`, term);
  return sql`(${all} + ${titleWeight - 1}::float8 * ${title})`;
}

/**
 * A term's `idf^e` over the scope's N (`s.n`) for its df (`bm25TermWeight` at weight 1), in SQL.
 */
function idfPower(df: SQL, exponent: SQL): SQL {
  return sql`power(ln(1 + (s.n - ${df} + 0.5) / (${df} + 0.5)), ${exponent})`;
}

/**
 * The most leaves a scope may hold for SQL to weigh title coverage in: a title's worth needs the df
 * of each of its terms, here a pass over every vector of the scope (~0.17 ms a leaf in PGlite: +0.2 s
 * on a few hundred leaves, +10 s a search at 50,000), in memory a posting list's length. Beyond it SQL
 * ranks by BM25 alone: a filter (version, topic, category) on a large collection, or the first
 * searches before the in-memory index has loaded (a small corpus loads in a second or two, a large
 * one is read back from its snapshot).
 */
export const SQL_TITLE_COVERAGE_LEAVES = 5_000;

/**
 * BM25 computed in SQL over the GIN-filtered candidates of the scope (see `bm25Score`): N and the
 * average word and gram lengths over the scope's leaves, tf per candidate and term, df counted over the candidates (a candidate
 * holds at least one query term, so every leaf containing a term is one). Exact for any filter; its
 * cost grows with the number of candidates, so the unfiltered scope is served from memory instead.
 * Title coverage is weighed in as in memory on a scope of at most `coverageLeaves` leaves
 * (`SQL_TITLE_COVERAGE_LEAVES`), left out on a larger one.
 */
export async function rankFulltextSql(
  db: Db,
  access: AccessScope,
  queryTerms: readonly QueryTerm[],
  filters: SearchFilters,
  limit: number,
  params: Bm25Params,
  asked?: ReadonlySet<string>,
  { coverageLeaves = SQL_TITLE_COVERAGE_LEAVES }: { coverageLeaves?: number } = {},
): Promise<RankedNode[]> {
  const weighted = [...distinctTerms(queryTerms)].filter(([, weight]) => weight > 0);
  if (weighted.length === 0) return [];
  const terms = weighted.map(([term]) => term);
  const scope = scopeCondition(access, filters);
  const col = (prefix: string, i: number) => sql.raw(`${prefix}${i}`);
  // Each term in its field (`termField`): its parameters, and the words' or the grams' length.
  const fields = terms.map((term) => termField(term, params));
  const tfs = terms.map(
    (term, i) => sql`${weightedTermFrequency(term, fields[i]?.params.titleWeight ?? 1)} AS ${col('tf', i)}`,
  );
  const dfs = terms.map(
    (_, i) => sql`count(*) FILTER (WHERE ${col('tf', i)} > 0)::float8 AS ${col('df', i)}`,
  );
  // Each term's worth, w * idf^e (`bm25TermWeight`), for a term some candidate holds.
  const worths = weighted.map(([, weight], i) => {
    const p = fields[i]?.params ?? params;
    const df = sql`f.${col('df', i)}`;
    return sql`CASE WHEN ${df} > 0 THEN ${weight}::float8 * ${idfPower(df, sql`${p.idfExponent ?? 1}::float8`)} ELSE 0 END`;
  });
  const parts = weighted.map((_, i) => {
    const { gram, params: p } = fields[i] ?? { gram: false, params };
    const k1 = sql`${p.k1}::float8`;
    const b = sql`${p.b}::float8`;
    const length = gram ? sql`c.gl / s.avggl` : sql`c.dl / s.avgdl`;
    const tf = sql`c.${col('tf', i)}`;
    return sql`CASE WHEN ${tf} > 0 THEN ${worths[i]}
      * ${tf} * (${k1} + 1) / (${tf} + ${k1} * (1 - ${b} + ${b} * ${length})) ELSE 0 END`;
  });
  const bm25 = sql`(${sql.join(parts, sql` + `)})`;
  const coverageWeight = params.titleCoverage ?? 0;
  // Title coverage (`titleShare`): of the worth of the leaf's title and section path (every distinct
  // weight-A lexeme's idf^e at weight 1, df over the scope: `tw`), the share the question's own
  // terms hold, squared.
  const askedWorth = sql`(${sql.join(
    terms.map((term, i) => {
      if (asked && !asked.has(term)) return sql`0`;
      const p = fields[i]?.params ?? params;
      const df = sql`f.${col('df', i)}`;
      return sql`CASE WHEN c.${col('at', i)} AND ${df} > 0 THEN ${idfPower(df, sql`${p.idfExponent ?? 1}::float8`)} ELSE 0 END`;
    }),
    sql` + `,
  )})`;
  // Postgres' least ignores a null: a leaf without a title term (no row in tw) has coverage 0.
  const coverage = sql`power(least(1, coalesce(${askedWorth} / nullif(tw.worth, 0), 0)), 2)`;
  const score = coverageWeight > 0 ? sql`${bm25} * (1 + ${coverageWeight}::float8 * ${coverage})` : bm25;
  const titled =
    coverageWeight > 0
      ? [
          sql`, ts_filter(n.search_vector, '{a}') AS title_vector`,
          ...terms.map(
            (term, i) =>
              sql`, ts_filter(n.search_vector, '{a}') @@ ${buildOrTsquery([term])}::tsquery AS ${col('at', i)}`,
          ),
        ]
      : [];
  const wordExponent = sql`${params.idfExponent ?? 1}::float8`;
  const gramExponent = sql`${(params.grams ?? params).idfExponent ?? 1}::float8`;
  // Each distinct title lexeme of the candidates, its df over the scope (one pass over the scope's
  // vectors, made only when the scope is small enough: a one-time filter on `s`), then each
  // candidate's title worth; a gram ('#' and a CJK character or pair:
  // `isCharacterGram`) in the gram field when it has its own parameters.
  const titleWorth =
    coverageWeight > 0
      ? sql`,
        tl AS (SELECT DISTINCT u.lexeme FROM c, unnest(c.title_vector) AS u),
        tdf AS (
          SELECT u.lexeme, count(*)::float8 AS df
          FROM nodes n JOIN documents d ON d.id = n.document_id, unnest(n.search_vector) AS u
          WHERE (SELECT s.n FROM s) <= ${coverageLeaves}::float8
            AND ${scope} AND u.lexeme IN (SELECT lexeme FROM tl)
          GROUP BY u.lexeme
        ),
        tw AS (
          SELECT c.id, sum(${idfPower(
            sql`tdf.df`,
            sql`CASE WHEN ${params.grams ? sql`left(u.lexeme, 1) = '#'` : sql`false`} THEN ${gramExponent} ELSE ${wordExponent} END`,
          )}) AS worth
          FROM c CROSS JOIN s, unnest(c.title_vector) AS u JOIN tdf ON tdf.lexeme = u.lexeme
          GROUP BY c.id
        )`
      : sql``;
  const titleJoin = coverageWeight > 0 ? sql`LEFT JOIN tw ON tw.id = c.id` : sql``;
  const found = terms.map((term, i) => sql`CASE WHEN c.${col('tf', i)} > 0 THEN ${term}::text END`);
  const rows = await queryRows<{
    id: string;
    key: string;
    ordinal: number;
    score: number;
    terms: string[] | string;
  }>(
    db,
    sql`WITH s AS (
          SELECT count(*)::float8 AS n,
            CASE WHEN avg(n.token_count) > 0 THEN avg(n.token_count)::float8 ELSE 1 END AS avgdl,
            CASE WHEN avg(n.gram_count) > 0 THEN avg(n.gram_count)::float8 ELSE 1 END AS avggl
          FROM nodes n JOIN documents d ON d.id = n.document_id WHERE ${scope}
        ),
        c AS (
          SELECT n.id, d.key, n.ordinal, n.token_count::float8 AS dl, n.gram_count::float8 AS gl, ${sql.join(tfs, sql`, `)}${sql.join(titled, sql``)}
          FROM nodes n JOIN documents d ON d.id = n.document_id
          WHERE ${scope} AND n.search_vector @@ ${buildOrTsquery(terms)}::tsquery
        ),
        f AS (SELECT ${sql.join(dfs, sql`, `)} FROM c)${titleWorth}
        SELECT c.id, c.key, c.ordinal, ${score} AS score,
          array_remove(ARRAY[${sql.join(found, sql`, `)}]::text[], NULL) AS terms
        FROM c CROSS JOIN s CROSS JOIN f ${titleJoin}
        ORDER BY score DESC, ${tieOrder('c')}
        LIMIT ${limit}::int`,
  );
  return rows.map((row) => ({
    nodeId: row.id,
    documentKey: row.key,
    ordinal: Number(row.ordinal),
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

/**
 * A leaf's tsvector read once (`sv`), for a subquery the planner keeps apart (`OFFSET 0`). A leaf's
 * tsvector is stored out of line (TOAST): each `@@` on the column itself fetches it again, so
 * counting 30 feedback terms read every vector 30 times (3.5x slower in PGlite).
 */
const READ_VECTOR_ONCE = sql`n.search_vector || ''::tsvector AS sv`;

/** Number of leaves in the scope, and of those holding each term (one aggregate over the scope). */
export async function documentFrequenciesSql(
  db: Db,
  access: AccessScope,
  terms: readonly string[],
  filters: SearchFilters,
): Promise<{ n: number; df: Map<string, number> }> {
  const counts = terms.map(
    (term, i) =>
      sql`count(*) FILTER (WHERE v.sv @@ ${buildOrTsquery([term])}::tsquery)::float8 AS ${sql.raw(`df${i}`)}`,
  );
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`SELECT count(*)::float8 AS n${terms.length ? sql`, ${sql.join(counts, sql`, `)}` : sql``}
        FROM (
          SELECT ${READ_VECTOR_ONCE} FROM nodes n JOIN documents d ON d.id = n.document_id
          WHERE ${scopeCondition(access, filters)} OFFSET 0
        ) v`,
  );
  return {
    n: Number(row?.n ?? 0),
    df: new Map(terms.map((term, i) => [term, Number(row?.[`df${i}`] ?? 0)])),
  };
}
