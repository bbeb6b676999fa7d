import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { rowValues } from '#shared/db/row-values.ts';

const dialect = new PgDialect();

/** The list as one `sql` fragment per value, joined: how the statements wrote it before. */
function joined(rows: unknown[][], casts: string[]) {
  return sql.join(
    rows.map(
      (row) =>
        sql`(${sql.join(
          row.map((value, i) => (casts[i] ? sql`${value}::${sql.raw(casts[i] as string)}` : sql`${value}`)),
          sql`, `,
        )})`,
    ),
    sql`, `,
  );
}

describe('rowValues', () => {
  it('renders the text and parameters of one fragment per value, joined', () => {
    const casts = ['uuid', '', 'int', 'jsonb'];
    const rows = [
      ['00000000-0000-0000-0000-000000000001', 'a', 1, '{}'],
      ['00000000-0000-0000-0000-000000000002', null, 2, '{"k":1}'],
      ['00000000-0000-0000-0000-000000000003', "it's", 3, '[]'],
    ];
    const flat = dialect.sqlToQuery(sql`INSERT INTO t VALUES ${rowValues(rows, casts)} RETURNING 1`);
    expect(flat).toEqual(dialect.sqlToQuery(sql`INSERT INTO t VALUES ${joined(rows, casts)} RETURNING 1`));
    expect(flat.sql).toBe(
      'INSERT INTO t VALUES ($1::uuid, $2, $3::int, $4::jsonb), ($5::uuid, $6, $7::int, $8::jsonb), ($9::uuid, $10, $11::int, $12::jsonb) RETURNING 1',
    );
  });

  it('numbers its parameters after those before it in the statement', () => {
    const query = dialect.sqlToQuery(sql`SELECT ${'x'}; ${rowValues([[1], [2]], ['int'])}`);
    expect(query.sql).toBe('SELECT $1; ($2::int), ($3::int)');
    expect(query.params).toEqual(['x', 1, 2]);
  });

  it('is empty without rows', () => {
    expect(dialect.sqlToQuery(rowValues([], ['int'])).sql).toBe('');
  });
});
