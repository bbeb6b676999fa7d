import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '#shared/db/index.ts';
import { installDrizzleParsers } from '#shared/db/pglite-parsers.ts';
import { PreparedStatements } from '#shared/db/pglite-worker/prepared-statements.ts';

// The embedded database's worker runs parameterized statements as named prepared statements
// (shared/db/pglite-worker/prepared-statements.ts): they must answer exactly as PGlite.query does.
describe('prepared statements of the embedded database', () => {
  let database: Awaited<ReturnType<typeof openPglite>>;
  beforeAll(async () => {
    database = await openPglite();
    installDrizzleParsers(database.pglite);
    await database.pglite.exec(`CREATE TABLE t (id int PRIMARY KEY, name text, tags text[], meta jsonb)`);
  });
  afterAll(() => database.close());

  const statements: [string, unknown[]][] = [
    [
      'SELECT $1::int AS n, $2::text AS s, $3::text[] AS a, $4::jsonb AS j',
      [7, 'été', ['a', 'b c'], { k: [1, 2] }],
    ],
    [
      'SELECT $1::uuid AS id, $2::float8 AS f, $3::bool AS b, $4::text AS missing',
      ['8d0c7c1e-2a49-4d8c-9a57-1f2f4c1d2e3f', 0.25, true, null],
    ],
    [
      "SELECT now() - $1::interval AS ago, '2024-05-06'::date AS d, $2::timestamptz AS ts",
      ['1 day', '2024-05-06 07:08:09+00'],
    ],
    [
      'INSERT INTO t (id, name, tags, meta) VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)',
      [1, 'one', ['x'], { a: 1 }, 2, 'two', [], null],
    ],
    ['UPDATE t SET name = $1 WHERE id = $2 RETURNING *', ['uno', 1]],
    ['SELECT * FROM t WHERE id = ANY($1::int[]) ORDER BY id', [[1, 2]]],
    ['DELETE FROM t WHERE id = $1', [99]],
  ];

  it('returns the rows, fields and affected rows PGlite.query returns, in object and array mode', async () => {
    const prepared = new PreparedStatements(database.pglite);
    for (const rowMode of ['object', 'array'] as const) {
      for (const [text, params] of statements) {
        if (text.startsWith('INSERT')) await database.pglite.query('DELETE FROM t');
        const plain = await database.pglite.query(text, params, { rowMode });
        if (text.startsWith('INSERT')) await database.pglite.query('DELETE FROM t');
        // Twice: the first run prepares, the second runs what was prepared.
        for (let run = 0; run < 2; run++) {
          if (text.startsWith('INSERT') && run > 0) await database.pglite.query('DELETE FROM t');
          const result = await prepared.query(text, params, rowMode, false);
          if (text.includes('now()')) {
            expect(result.fields).toEqual(plain.fields);
            continue;
          }
          expect(result.rows).toEqual(plain.rows);
          expect(result.fields).toEqual(plain.fields);
          expect(result.affectedRows ?? 0).toBe(plain.affectedRows ?? 0);
        }
      }
    }
    expect(prepared.size).toBe(statements.length);
  });

  it('throws the database error with its fields, and the statement works again after it', async () => {
    const prepared = new PreparedStatements(database.pglite);
    const insert = 'INSERT INTO t (id, name) VALUES ($1, $2)';
    await prepared.query(insert, [10, 'ten'], 'object', false);
    const error = await prepared.query(insert, [10, 'again'], 'object', false).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: '23505',
      constraint: 't_pkey',
      detail: 'Key (id)=(10) already exists.',
    });
    await prepared.query(insert, [11, 'eleven'], 'object', false);
    const rows = await database.pglite.query('SELECT name FROM t WHERE id >= 10 ORDER BY id');
    expect(rows.rows).toEqual([{ name: 'ten' }, { name: 'eleven' }]);
    const syntax = await prepared.query('SELEC $1', [1], 'object', false).catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: '42601' });
  });

  it('keeps at most its limit prepared, preparing an evicted text again when it comes back', async () => {
    const prepared = new PreparedStatements(database.pglite, 2);
    for (const n of [1, 2, 3, 1]) {
      const { rows } = await prepared.query(`SELECT $1::int + ${n} AS n`, [10], 'object', false);
      expect(rows).toEqual([{ n: 10 + n }]);
    }
    expect(prepared.size).toBe(2);
    const open = await database.pglite.query<{ statement: string }>(
      "SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int + %' ORDER BY statement",
    );
    expect(open.rows.map((row) => row.statement)).toEqual([
      'SELECT $1::int + 1 AS n',
      'SELECT $1::int + 3 AS n',
    ]);
  });

  it('reads a table whose columns changed since the statement was prepared', async () => {
    const prepared = new PreparedStatements(database.pglite);
    const select = 'SELECT * FROM t WHERE id = $1';
    expect(await prepared.query(select, [10], 'object', false)).toMatchObject({
      rows: [{ id: 10, name: 'ten' }],
    });
    await database.pglite.exec('ALTER TABLE t ADD COLUMN extra int DEFAULT 5');
    expect(await prepared.query(select, [10], 'object', false)).toMatchObject({
      rows: [{ id: 10, name: 'ten', extra: 5 }],
    });
  });

  it('rolls back with the transaction it ran in', async () => {
    const prepared = new PreparedStatements(database.pglite);
    await database.pglite.query('BEGIN');
    await prepared.query('INSERT INTO t (id, name) VALUES ($1, $2)', [20, 'twenty'], 'object', true);
    await database.pglite.query('ROLLBACK');
    const { rows } = await prepared.query(
      'SELECT count(*)::int AS n FROM t WHERE id = $1',
      [20],
      'object',
      false,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });
});
