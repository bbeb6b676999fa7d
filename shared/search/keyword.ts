import { type SQL, sql } from 'drizzle-orm';
import type { AccessScope } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { databaseMessage, sqlState } from '#shared/db/sql-state.ts';
import { ValidationError } from '#shared/errors.ts';
import { hydrateHits } from './hydrate.ts';
import { checkRegexCost } from './regex-cost.ts';
import { scopeCondition, validateFilters } from './scope.ts';
import type { KeywordMode, RankedNode, SearchDeps, SearchFilters, SearchHit } from './types.ts';

export interface KeywordQuery {
  keywords: string[];
  mode: KeywordMode;
  caseSensitive?: boolean;
  /** Checked between the pattern checks, the ranking and the loading of the hits. */
  signal?: AbortSignal;
}

const MAX_KEYWORDS = 20;
const MAX_KEYWORD_CHARS = 500;
/** Minimum pg_trgm word similarity for a fuzzy match ("platfrom" ~ "platform" is 0.56). */
const FUZZY_THRESHOLD = 0.35;
/**
 * Matching rows read per tier, relative to the results wanted. A keyword found in half the corpus
 * would otherwise cost a heap fetch, a recheck and a sort of half the nodes table (about a second at
 * 50,000 paragraphs); reading a window and stopping keeps each tier to a few hundred rows.
 */
const WINDOW_FACTOR = 4;
const MIN_WINDOW = 50;
const CANDIDATE = sql.raw('c.index_text');
const NODE = sql.raw('n.index_text');
/** SQLSTATE invalid_regular_expression. */
const INVALID_REGEX = '2201B';

/**
 * Keyword search over the content and section titles of leaves, i.e. their index text (section path,
 * a newline, the content; trigram-indexed). `exact`: substring match (LIKE / ILIKE, wildcards in
 * keywords taken literally); `regex`: POSIX regular expressions (`~` / `~*`; `(?n)` makes ^ and $
 * match at line ends), each validated first; `fuzzy`: pg_trgm word similarity (typos, near forms;
 * always case-insensitive).
 * Keywords always travel as bound parameters. Score = number of keywords matched (for fuzzy, plus
 * half the mean similarity); ties in reading order. The ranking runs over a bounded window of
 * candidates (`4 x limit`, at least 50) matching all the keywords, and one matching any of them, so
 * a common word costs that window rather than every row it appears in; a leaf that matches every
 * keyword still ranks above those matching fewer.
 *
 * @example await keywordSearch(deps, { keywords: ['张三', '2024'], mode: 'exact' }, {}, 20)
 * @throws ValidationError for no keywords, too many, or an invalid regular expression.
 */
export async function keywordSearch(
  deps: SearchDeps,
  query: KeywordQuery,
  filters: SearchFilters = {},
  limit: number = deps.search.keywordMaxResults,
): Promise<SearchHit[]> {
  const ranked = await rankKeyword(deps.db, deps.access, query, filters, limit);
  query.signal?.throwIfAborted();
  return hydrateHits(deps.db, deps.access, ranked);
}

/** The ranking of `keywordSearch` without loading the hits' details. */
export async function rankKeyword(
  db: Db,
  access: AccessScope,
  query: KeywordQuery,
  filters: SearchFilters,
  limit: number,
): Promise<RankedNode[]> {
  validateFilters(filters);
  const keywords = checkKeywords(query.keywords);
  if (limit < 1) return [];
  if (query.mode === 'regex') await checkPatterns(db, keywords);
  query.signal?.throwIfAborted();
  const caseSensitive = query.caseSensitive === true;
  const onCandidate = keywords.map((kw) => matchCondition(kw, query.mode, caseSensitive, CANDIDATE));
  const onNode = keywords.map((kw) => matchCondition(kw, query.mode, caseSensitive, NODE));
  // One keyword: every candidate matched it, so its condition is not evaluated twice.
  const single = keywords.length === 1;
  const matched = single
    ? sql`1`
    : sql.join(
        onCandidate.map((m) => sql`(${m})::int`),
        sql` + `,
      );
  const similarity =
    query.mode === 'fuzzy'
      ? sql.join(
          keywords.map((kw) => sql`word_similarity(${kw}, coalesce(c.index_text, ''))`),
          sql` + `,
        )
      : sql`0`;
  const found = sql.join(
    keywords.map((kw, i) =>
      single ? sql`${kw}::text` : sql`CASE WHEN ${onCandidate[i]} THEN ${kw}::text END`,
    ),
    sql`, `,
  );
  const window = Math.max(limit * WINDOW_FACTOR, MIN_WINDOW);
  const tier = (condition: SQL) => sql`(SELECT n.id, n.index_text, d.filename, n.ordinal
      FROM nodes n JOIN documents d ON d.id = n.document_id
      WHERE ${scopeCondition(access, filters)} AND (${condition})
      LIMIT ${window}::int)`;
  const any = tier(sql.join(onNode, sql` OR `));
  const candidates = single ? any : sql`${tier(sql.join(onNode, sql` AND `))} UNION ${any}`;
  const statement = sql`SELECT c.id, ${matched} AS matched, (${similarity})::float8 / ${keywords.length}::int AS similarity,
        array_remove(ARRAY[${found}]::text[], NULL) AS found
      FROM (${candidates}) c
      ORDER BY matched DESC, similarity DESC, c.filename, c.ordinal, c.id
      LIMIT ${limit}::int`;
  type Row = { id: string; matched: number; similarity: number; found: string[] | string };
  let rows: Row[];
  try {
    rows =
      query.mode === 'fuzzy'
        ? await db.transaction(async (tx) => {
            await tx.execute(
              sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(FUZZY_THRESHOLD)}, true)`,
            );
            return queryRows<Row>(tx as unknown as Db, statement);
          })
        : await queryRows<Row>(db, statement);
  } catch (error) {
    if (sqlState(error) === INVALID_REGEX) {
      throw new ValidationError(`invalid regular expression: ${databaseMessage(error)}`, { cause: error });
    }
    throw error;
  }
  return rows.map((row) => ({
    nodeId: row.id,
    score: Number(row.matched) + (query.mode === 'fuzzy' ? Number(row.similarity) / 2 : 0),
    highlights: Array.isArray(row.found)
      ? row.found
      : keywords.filter((kw) => String(row.found).includes(kw)),
  }));
}

function checkKeywords(input: string[]): string[] {
  const keywords = [...new Set(input.map((k) => k.trim()).filter(Boolean))];
  if (keywords.length === 0) throw new ValidationError('keyword search needs at least one keyword');
  if (keywords.length > MAX_KEYWORDS) {
    throw new ValidationError(
      `keyword search takes at most ${MAX_KEYWORDS} keywords (got ${keywords.length})`,
    );
  }
  const long = keywords.find((k) => k.length > MAX_KEYWORD_CHARS);
  if (long) throw new ValidationError(`a keyword is longer than ${MAX_KEYWORD_CHARS} characters`);
  if (keywords.some((k) => k.includes('\u0000'))) throw new ValidationError('keywords may not contain NUL');
  return keywords;
}

/**
 * Refuses patterns that would hold the database (`checkRegexCost`), then compiles each in the
 * database (its regex dialect is the one that matters) before searching.
 */
async function checkPatterns(db: Db, patterns: string[]): Promise<void> {
  checkRegexCost(patterns);
  for (const pattern of patterns) {
    try {
      await queryRows(db, sql`SELECT '' ~ ${pattern} AS ok`);
    } catch (error) {
      if (sqlState(error) !== INVALID_REGEX) throw error;
      throw new ValidationError(`invalid regular expression '${pattern}': ${databaseMessage(error)}`, {
        cause: error,
      });
    }
  }
}

/** A regular expression without any of the ARE metacharacters matches as the plain substring it spells. */
const REGEX_METACHARACTER = /[\\^$.|?*+()[\]{}]/;

/** One keyword's condition on a leaf's index text `column` (trigram-indexed in every mode). */
function matchCondition(keyword: string, mode: KeywordMode, caseSensitive: boolean, column: SQL): SQL {
  // The trigram index cannot narrow a regex over CJK text (its regex analysis keeps only
  // alphanumerics of the C locale): a literal pattern goes through LIKE, which it can narrow.
  if (mode === 'regex' && REGEX_METACHARACTER.test(keyword))
    return sql`${column} ${sql.raw(caseSensitive ? '~' : '~*')} ${keyword}`;
  if (mode === 'fuzzy') return sql`${keyword} <% ${column}`;
  const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} ${sql.raw(caseSensitive ? 'LIKE' : 'ILIKE')} ${pattern} ESCAPE '\\'`;
}
