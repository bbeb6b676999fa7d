import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, openPgliteWorker, queryRows, schema } from '#shared/db/index.ts';

// The embedded client installs drizzle's parsers once instead of passing them with every query
// (shared/db/client.ts), in-process or inside the worker thread (shared/db/pglite-worker/): values
// must come back exactly as drizzle's own PGlite driver gives them.
describe.each([
  ['in-process', () => openPglite()],
  ['worker thread', () => openPgliteWorker(undefined, 0)],
])('embedded PGlite client (%s)', (_name, open) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(() => database.close());

  it('maps timestamp columns to dates through the query builder, in and out of a transaction', async () => {
    const { db } = database;
    const [doc] = await db
      .insert(schema.documents)
      .values({ key: 'a.md', filename: 'a.md', status: 'queued' })
      .returning();
    expect(doc?.createdAt).toBeInstanceOf(Date);
    const inTx = await db.transaction((tx) => tx.select().from(schema.documents));
    expect(inTx[0]?.createdAt).toBeInstanceOf(Date);
    expect(inTx[0]?.createdAt.getTime()).toBe(doc?.createdAt.getTime());
  });

  it('returns dates, timestamps and intervals of raw SQL as text, other types parsed', async () => {
    const [row] = await queryRows<Record<string, unknown>>(
      database.db,
      sql`SELECT '2024-05-06'::date AS d, '2024-05-06 07:08:09+00'::timestamptz AS ts,
            '1 day'::interval AS i, ARRAY['2024-05-06'::date] AS ds, 42::int AS n, '{"a":1}'::jsonb AS j`,
    );
    expect(row).toEqual({
      d: '2024-05-06',
      ts: '2024-05-06 07:08:09+00',
      i: '1 day',
      ds: '{2024-05-06}',
      n: 42,
      j: { a: 1 },
    });
  });
});

describe('a short-lived embedded database (a CLI command reading once)', () => {
  it('starts with a small buffer cache and few backend slots, migrated like any other', async () => {
    const database = await openPglite(undefined, { shortLived: true });
    try {
      const [row] = await queryRows<{ shared_buffers: string }>(database.db, sql`SHOW shared_buffers`);
      expect(row?.shared_buffers).toBe('4MB');
      const [slots] = await queryRows<{ max_connections: string }>(database.db, sql`SHOW max_connections`);
      expect(slots?.max_connections).toBe('4');
      expect(await database.db.select().from(schema.documents)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
