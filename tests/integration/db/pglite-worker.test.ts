import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPgliteWorker, queryRows, schema } from '#shared/db/index.ts';
import { sqlState } from '#shared/db/sql-state.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const insertDoc = (database: Database, key: string) =>
  database.db.insert(schema.documents).values({ key, filename: key, status: 'queued' });
const keys = async (database: Database) =>
  (await database.db.select({ key: schema.documents.key }).from(schema.documents)).map((r) => r.key).sort();

describe('embedded PGlite in a worker thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPgliteWorker(undefined, 0);
  }, 60_000);
  afterAll(() => database.close());

  it('carries Postgres error fields across the thread (a unique violation is 23505 with its detail)', async () => {
    await insertDoc(database, 'same.md');
    const error = await insertDoc(database, 'same.md').catch((e: unknown) => e);
    expect(sqlState(error)).toBe('23505');
    const driver = (error as { cause?: Record<string, unknown> }).cause;
    expect(driver).toBeInstanceOf(Error);
    expect(driver).toMatchObject({
      detail: 'Key (key)=(same.md) already exists.',
      constraint: 'documents_live_key',
    });
  });

  it("keeps a transaction's statements together: another caller's statement waits until it commits", async () => {
    let outside: Promise<string[]> | undefined;
    await database.db.transaction(async (tx) => {
      await tx.insert(schema.documents).values({ key: 'tx-1.md', filename: 'tx-1.md', status: 'queued' });
      outside = keys(database);
      await sleep(200);
      await tx.insert(schema.documents).values({ key: 'tx-2.md', filename: 'tx-2.md', status: 'queued' });
    });
    expect(await outside).toEqual(expect.arrayContaining(['tx-1.md', 'tx-2.md']));
  });

  it('rolls a transaction back when its callback throws', async () => {
    const failed = database.db.transaction(async (tx) => {
      await tx.insert(schema.documents).values({ key: 'gone.md', filename: 'gone.md', status: 'queued' });
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    expect(await keys(database)).not.toContain('gone.md');
  });

  it('leaves the event loop free while a statement runs', async () => {
    const slow = queryRows(database.db, sql`SELECT pg_sleep(1.5)`);
    const started = performance.now();
    await sleep(50);
    const late = performance.now() - started - 50;
    await slow;
    // In-process, the timer could only fire after the 1.5 s statement.
    expect(late).toBeLessThan(1000);
  });
});

describe('closing the embedded database while a transaction is open', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPgliteWorker(undefined, 0);
  }, 120_000);
  afterAll(() => database.close());

  it("rolls the transaction back and closes: the owner's later statements fail with 08003, nothing waits", async () => {
    let resume: () => void = () => {};
    let begun: () => void = () => {};
    const open = new Promise<void>((resolve) => {
      begun = resolve;
    });
    // An aborted request's search, say: its transaction begins, then waits for something else.
    const left = database.db
      .transaction(async (tx) => {
        await tx.insert(schema.documents).values({ key: 'left.md', filename: 'left.md', status: 'queued' });
        begun();
        await new Promise<void>((resolve) => {
          resume = resolve;
        });
        await tx.insert(schema.documents).values({ key: 'late.md', filename: 'late.md', status: 'queued' });
      })
      .catch((e: unknown) => e);
    await open;
    // Before: close waited behind the open transaction, whose rollback it refused: forever.
    const closed = database.close().then(() => 'closed');
    expect(await Promise.race([closed, sleep(10_000).then(() => 'still waiting')])).toBe('closed');
    resume();
    expect(sqlState(await left)).toBe('08003');
  }, 30_000);
});

describe('statement timeout of the embedded database', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-worker-timeout-'));
    database = await openPgliteWorker(join(dir, 'db'), 500);
  }, 60_000);
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a statement past the timeout with 57014, reopens the folder and keeps the data', async () => {
    await insertDoc(database, 'kept.md');
    const began = performance.now();
    const slow = queryRows(database.db, sql`SELECT pg_sleep(30)`).catch((e: unknown) => e);
    await sleep(100);
    // Sent while the slow one runs: it had not started, so it runs on the reopened database.
    const queued = keys(database);
    const error = await slow;
    expect(sqlState(error)).toBe('57014');
    expect((error as Error & { cause: Error }).cause.message).toMatch(/ran longer than 500 ms.*reopened/);
    expect(performance.now() - began).toBeLessThan(10_000);
    expect(await queued).toEqual(['kept.md']);
    await insertDoc(database, 'after.md');
    expect(await keys(database)).toEqual(['after.md', 'kept.md']);
  }, 60_000);

  it('rolls back a transaction whose statement ran past the timeout; its later statements fail with 57P01', async () => {
    const seen: (string | undefined)[] = [];
    const committed = await database.db
      .transaction(async (t) => {
        await t.insert(schema.documents).values({ key: 'cut.md', filename: 'cut.md', status: 'queued' });
        seen.push(sqlState(await t.execute(sql`SELECT pg_sleep(30)`).catch((e: unknown) => e)));
        seen.push(sqlState(await t.execute(sql`SELECT 1`).catch((e: unknown) => e)));
      })
      .catch((e: unknown) => e);
    expect(seen).toEqual(['57014', '57P01']);
    expect(sqlState(committed)).toBe('57P01');
    expect(await keys(database)).not.toContain('cut.md');
  }, 60_000);

  it('lets SET LOCAL statement_timeout = 0 exempt a transaction, as index builds do', async () => {
    const rows = await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw('SET LOCAL statement_timeout = 0'));
      return queryRows<{ done: number }>(tx, sql`SELECT 1 AS done FROM pg_sleep(1)`);
    });
    expect(rows).toEqual([{ done: 1 }]);
    // The exemption ended with the transaction.
    const error = await queryRows(database.db, sql`SELECT pg_sleep(30)`).catch((e: unknown) => e);
    expect(sqlState(error)).toBe('57014');
  }, 60_000);
});

describe('statement timeout of an in-memory embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPgliteWorker(undefined, 300);
  }, 60_000);
  afterAll(() => database.close());

  it('answers 57014 and lets the statement finish, since memory cannot be reopened', async () => {
    await insertDoc(database, 'memory.md');
    const error = await queryRows(database.db, sql`SELECT pg_sleep(1)`).catch((e: unknown) => e);
    expect(sqlState(error)).toBe('57014');
    expect(await keys(database)).toEqual(['memory.md']);
  }, 30_000);
});
