import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, queryRows, schema } from '#shared/db/index.ts';
import { FIRST_REFRESH_AFTER, plannerStatistics } from '#shared/db/planner-statistics.ts';

// PGlite has no autovacuum: without these refreshes a corpus loaded into a fresh folder is planned as
// if its tables were empty (shared/db/planner-statistics.ts).
describe('planner statistics of the embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPglite();
  });
  afterAll(() => database.close());

  /** What the planner believes the documents table holds (-1: never analyzed). */
  const believed = async () => {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'documents'`,
    );
    return Number(row?.n);
  };
  const addDocuments = (n: number, from: number) =>
    database.db.insert(schema.documents).values(
      Array.from({ length: n }, (_, i) => ({
        key: `d${from + i}.md`,
        filename: 'd.md',
        status: 'ready' as const,
      })),
    );

  it('are refreshed after the first documents, then each time the corpus doubled', async () => {
    const statistics = plannerStatistics(database.db);
    await addDocuments(FIRST_REFRESH_AFTER, 0);
    for (let i = 1; i < FIRST_REFRESH_AFTER; i++) await statistics.documentReady();
    expect(await believed()).toBe(-1);
    await statistics.documentReady();
    expect(await believed()).toBe(FIRST_REFRESH_AFTER);

    // The corpus now holds 50: the next refresh comes 50 documents later, not before.
    await addDocuments(60, FIRST_REFRESH_AFTER);
    for (let i = 1; i < FIRST_REFRESH_AFTER; i++) await statistics.documentReady();
    expect(await believed()).toBe(FIRST_REFRESH_AFTER);
    await statistics.documentReady();
    expect(await believed()).toBe(FIRST_REFRESH_AFTER + 60);
  });
});
