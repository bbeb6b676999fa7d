import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/errors.ts';
import { runTableQuery, type TableQuery, tableQuerySpec } from '#shared/qa/tables/query.ts';
import type { Table } from '#shared/qa/tables/table.ts';

/** Stanley Cup winners by conference (cups with a thousands separator or a note, as sheets write them). */
const cups: Table = {
  title: 'Cups',
  columns: ['Team', 'Stanley Cups', 'Conference'],
  rows: [
    ['Montreal Canadiens', '24', 'East'],
    ['Toronto Maple Leafs', '13', 'East'],
    ['Detroit Red Wings', '11', 'East'],
    ['Chicago Blackhawks', '6', 'West'],
    ['Edmonton Oilers', '5 (all in the 1980s)', 'West'],
    ['Seattle Kraken', '', 'West'],
  ].map((cells, i) => ({ number: i + 2, cells, passage: Math.floor(i / 2) })),
};

const query = (spec: Record<string, unknown>): TableQuery => tableQuerySpec.parse(spec);
const teams = (rows: number[]) => rows.map((r) => cups.rows[r]?.cells[0]);

describe('runTableQuery', () => {
  it('keeps the rows every filter holds for: words case-insensitively, numbers as numbers', () => {
    const result = runTableQuery(
      cups,
      query({
        filter: [
          { column: 'conference', op: 'equals', value: 'west' },
          { column: 'Stanley Cups', op: '>=', value: '5' },
        ],
      }),
    );
    expect(result.matched).toBe(2);
    expect(teams(result.groups[0]?.rows ?? [])).toEqual(['Chicago Blackhawks', 'Edmonton Oilers']);
  });

  it('matches a phrase with contains and leaves it out with not_contains', () => {
    const held = runTableQuery(
      cups,
      query({ filter: [{ column: 'Team', op: 'contains', value: 'maple leafs' }] }),
    );
    expect(teams(held.groups[0]?.rows ?? [])).toEqual(['Toronto Maple Leafs']);
    const left = runTableQuery(
      cups,
      query({ filter: [{ column: 'Team', op: 'not_contains', value: 'red' }] }),
    );
    expect(left.matched).toBe(5);
    expect(teams(left.groups[0]?.rows ?? [])).not.toContain('Detroit Red Wings');
  });

  it('aggregates over the kept rows, reading past a note and skipping an empty cell', () => {
    const sum = runTableQuery(
      cups,
      query({
        filter: [{ column: 'Conference', op: 'equals', value: 'West' }],
        aggregate: { op: 'sum', column: 'Stanley Cups' },
      }),
    );
    expect(sum.groups[0]).toMatchObject({ value: 11, size: 3 });
    const average = runTableQuery(cups, query({ aggregate: { op: 'average', column: 'Stanley Cups' } }));
    expect(average.groups[0]?.value).toBeCloseTo(59 / 5);
    expect(runTableQuery(cups, query({ aggregate: { op: 'count' } })).groups[0]?.value).toBe(6);
  });

  it('groups by a column, each group with its aggregate, largest first, rows capped by the limit', () => {
    const result = runTableQuery(
      cups,
      query({ group_by: 'Conference', aggregate: { op: 'max', column: 'Stanley Cups' }, limit: 2 }),
    );
    expect(result.groups.map((g) => [g.key, g.value, g.size])).toEqual([
      ['East', 24, 3],
      ['West', 6, 3],
    ]);
    expect(result.groups[0]?.rows).toHaveLength(2);
  });

  it('sorts numbers as numbers and text as text, then keeps the limit', () => {
    const byCups = runTableQuery(cups, query({ sort: { column: 'Stanley Cups', order: 'asc' }, limit: 3 }));
    expect(teams(byCups.groups[0]?.rows ?? []).slice(0, 3)).toEqual([
      'Edmonton Oilers',
      'Chicago Blackhawks',
      'Detroit Red Wings',
    ]);
    const byName = runTableQuery(cups, query({ sort: { column: 'Team', order: 'desc' }, limit: 2 }));
    expect(teams(byName.groups[0]?.rows ?? [])).toEqual(['Toronto Maple Leafs', 'Seattle Kraken']);
    expect(byName.matched).toBe(6);
  });

  it('names the columns the table has when the query names one it lacks', () => {
    expect(() => runTableQuery(cups, query({ sort: { column: 'Wins' } }))).toThrow(ValidationError);
    expect(() => runTableQuery(cups, query({ filter: [{ column: 'Wins', op: '>', value: 3 }] }))).toThrow(
      /no column "Wins" in table "Cups"; columns: Team, Stanley Cups, Conference/,
    );
  });

  it('asks for a column when an aggregate other than count has none', () => {
    expect(() => runTableQuery(cups, query({ aggregate: { op: 'sum' } }))).toThrow(
      /aggregate sum needs a column/,
    );
  });

  it('rejects a malformed spec, saying where', () => {
    const bad = tableQuerySpec.safeParse({
      filter: [{ column: 'Team', op: 'like', value: 'x' }],
      limit: 500,
    });
    expect(bad.success).toBe(false);
    const paths = bad.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['filter.0.op', 'limit']));
  });
});
