import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';

const ROWS = 23;

describe.each(DRIVERS)('readPaged (%s)', (driver) => {
  let database: Database;
  /** Statements the reads sent, counted by a wrapper around the database's `execute`. */
  let statements = 0;

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    await database.db.execute(sql`CREATE TABLE paged (id int PRIMARY KEY, label text NOT NULL)`);
    // Labels of 1 to 40 characters, inserted out of key order.
    await database.db.execute(sql`INSERT INTO paged
      SELECT i, repeat('x', 1 + (i * 7) % 40) FROM generate_series(${ROWS}::int, 1, -1) AS i`);
    const execute = database.db.execute.bind(database.db);
    database.db.execute = ((query: Parameters<typeof execute>[0]) => {
      statements++;
      return execute(query);
    }) as typeof execute;
  });
  afterAll(async () => database?.close());

  const read = async (options: { pageBytes?: number; pageRows?: number }) => {
    statements = 0;
    const rows = await readPaged<{ id: number; label: string }>(
      database.db,
      {
        columns: sql`p.id, p.label`,
        from: sql`paged p`,
        key: sql`p.id`,
        keyType: 'int',
        rowBytes: sql`octet_length(p.label)`,
      },
      options,
    );
    return { ids: rows.map((row) => Number(row.id)), statements };
  };
  const every = Array.from({ length: ROWS }, (_, i) => i + 1);

  it('reads every row once, in key order, whatever bounds the pages', async () => {
    for (const options of [
      {},
      { pageRows: 1 },
      { pageRows: 5 },
      { pageRows: 23 },
      { pageRows: 22 },
      { pageBytes: 50 },
      { pageBytes: 1 },
      { pageBytes: 100, pageRows: 3 },
    ]) {
      expect((await read(options)).ids, JSON.stringify(options)).toEqual(every);
    }
  });

  it('ends without another statement when the last page holds what was left', async () => {
    // One page holds all 23 rows; pages of 23 rows: one page, no empty page after it.
    expect((await read({})).statements).toBe(1);
    expect((await read({ pageRows: 23 })).statements).toBe(1);
    // 23 rows in pages of 5: five pages, the last holding 3.
    expect((await read({ pageRows: 5 })).statements).toBe(5);
    // Exactly two full pages: the first page's extra row tells there is more, the second's absence that there is none.
    expect((await read({ pageRows: 22 })).statements).toBe(2);
  });

  it('gives a page at least one row when a row alone is above the byte budget', async () => {
    const { ids, statements } = await read({ pageBytes: 1 });
    expect(ids).toEqual(every);
    expect(statements).toBe(ROWS);
  });
});
