import { type SQL, sql } from 'drizzle-orm';

/**
 * `statement` with `writes` (UPDATE, INSERT or DELETE statements) as data-modifying CTEs before it:
 * Postgres runs each of them whether or not the statement reads it, in the same round trip and
 * atomically with it. Pipeline steps send their bookkeeping (the step on the version, counts in its
 * stats) with a read or write they make anyway: statements add up per document. `statement` must not
 * have a WITH clause of its own.
 *
 * @example await db.execute(withWrites([sql`UPDATE document_versions SET ...`], sql`INSERT INTO embeddings ...`));
 */
export function withWrites(writes: readonly SQL[], statement: SQL): SQL {
  if (writes.length === 0) return statement;
  const ctes = writes.map((write, i) => sql`${sql.raw(`write_${i}`)} AS (${write})`);
  return sql`WITH ${sql.join(ctes, sql`, `)} ${statement}`;
}
