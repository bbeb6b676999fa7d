import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Db } from '#shared/db/client.ts';
import { type Database, openPglite } from '#shared/db/index.ts';
import { type LogLevel, setLogSink } from '#shared/log/logger.ts';
import { fulltextSearch } from '#shared/search/fulltext.ts';
import { invalidateMemoryIndex, warmSearchIndex } from '#shared/search/memory-sync.ts';
import type { SearchDeps } from '#shared/search/types.ts';
import { doc, indexCorpus, para, section } from '../../helpers/corpus.ts';

const dialect = new PgDialect();

/**
 * The database as search sees it, except that reading the leaves' terms (the in-memory index's
 * load) waits until `release` is called: a load that takes as long as the test wants.
 */
function slowLoadingDb(
  db: Db,
  afterRelease: (query: SQL) => Promise<unknown> = (query) => db.execute(query),
): { db: Db; release(): void; loading: Promise<void> } {
  let release = () => {};
  const gate = new Promise<void>((done) => {
    release = done;
  });
  let started = () => {};
  const loading = new Promise<void>((done) => {
    started = done;
  });
  const gated = new Proxy(db, {
    get(target, property) {
      if (property === 'execute') {
        return async (query: SQL) => {
          if (dialect.sqlToQuery(query).sql.includes('n.search_vector::text AS tsv')) {
            started();
            await gate;
            return afterRelease(query);
          }
          return target.execute(query);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: gated, release, loading };
}

describe('full-text search while the in-memory index loads', () => {
  let database: Database;
  const config = loadConfig({ env: {} });

  beforeAll(async () => {
    database = await openPglite();
    await indexCorpus(database.db, [
      {
        filename: 'plan.md',
        versions: [
          doc(
            'Plan',
            section('Budget', para('The budget grew and the budget was approved.'), para('Storage costs.')),
            section('Team', para('Hiring budget for the team, team and team.')),
          ),
        ],
      },
      { filename: 'ops.md', versions: [doc('Ops', para('Storage and budget of the storage cluster.'))] },
      { filename: 'zh.md', versions: [doc('规划', para('今年预算为500万，预算增长很快。'))] },
    ]);
  });

  afterAll(async () => {
    await database?.close();
  });

  const depsOf = (db: Db): SearchDeps => ({
    db,
    access: ALL_COLLECTIONS,
    embedder: { model: 'unused', dimensions: 8, embed: async () => [] },
    search: config.search,
  });
  const ranking = async (db: Db, query: string) =>
    (await fulltextSearch(depsOf(db), query, {}, 10)).map((hit) => [hit.content, hit.score.toFixed(9)]);

  it('answers from SQL before the load ends, ranked as from memory after it', async () => {
    const slow = slowLoadingDb(database.db);
    const queries = ['budget storage', 'team hiring', '预算', 'storage cluster'];
    const before: string[][][] = [];
    for (const query of queries) {
      // Every search answers although the load cannot finish yet (on main it waited for the load).
      const answered = await Promise.race([
        ranking(slow.db, query),
        new Promise<'waited'>((done) => setTimeout(() => done('waited'), 3000)),
      ]);
      expect(answered, query).not.toBe('waited');
      before.push(answered as string[][]);
    }
    await slow.loading;
    slow.release();
    await warmSearchIndex(slow.db);
    for (const [i, query] of queries.entries()) {
      const after = await ranking(slow.db, query);
      expect(after.length, query).toBeGreaterThan(0);
      expect(after, query).toEqual(before[i]);
    }
  });

  it('says nothing of a load cut short by the database closing, and warns of one that failed', async () => {
    const warnings: string[] = [];
    const previous = setLogSink((level: LogLevel, message) => {
      if (level === 'warn') warnings.push(message);
    });
    try {
      for (const closing of [true, false]) {
        warnings.length = 0;
        const slow = slowLoadingDb(database.db, async () => {
          throw new Error('PGlite is closed');
        });
        await ranking(slow.db, 'budget');
        await slow.loading;
        // What closing the runtime does before the database closes (a one-shot `dropqa ask`).
        if (closing) invalidateMemoryIndex(slow.db);
        slow.release();
        await new Promise((done) => setTimeout(done, 50));
        expect(warnings, closing ? 'closed' : 'failed').toEqual(
          closing ? [] : ['search: loading the in-memory index failed; full-text is ranked in SQL'],
        );
        invalidateMemoryIndex(slow.db);
      }
    } finally {
      setLogSink(previous);
    }
  });
});
