import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, openPgliteWorker, queryRows, schema } from '#shared/db/index.ts';
import { stampUnlessUnwritten } from '#shared/db/write-clock.ts';
import { openTestDatabase } from '../../helpers/db.ts';

// An embedded database has one writer, this process: a stamp read from it holds until a statement
// that may write (or a transaction) ends, so caches keyed by it skip their query meanwhile.
describe.each([
  ['in-process', () => openPglite()],
  ['worker thread', () => openPgliteWorker(undefined, 0)],
])('write clock of the embedded database (%s)', (_name, open) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(() => database.close());

  /** The stamp of the documents table, counting the reads it took. */
  async function documentsStamp(reads: { n: number }): Promise<string> {
    return stampUnlessUnwritten(database.db, 'test-documents', async () => {
      reads.n++;
      const [row] = await queryRows<{ n: string }>(
        database.db,
        sql`SELECT count(*)::text AS n FROM documents`,
      );
      return row?.n ?? '';
    });
  }

  it('reads a stamp once until a write, an update by raw SQL or a transaction ends', async () => {
    const reads = { n: 0 };
    const first = await documentsStamp(reads);
    await queryRows(database.db, sql`SELECT 1`);
    await database.db.select().from(schema.documents);
    await queryRows(
      database.db,
      sql`WITH RECURSIVE up AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM up WHERE n < 3) SELECT n FROM up`,
    );
    expect(await documentsStamp(reads)).toBe(first);
    expect(reads.n).toBe(1);

    // A WITH query holding a write is a write.
    await queryRows(
      database.db,
      sql`WITH moved AS (UPDATE documents SET status = status WHERE false RETURNING id) SELECT count(*) FROM moved`,
    );
    await documentsStamp(reads);
    expect(reads.n).toBe(2);
    reads.n = 1;

    await database.db.insert(schema.documents).values({ key: 'a.md', filename: 'a.md', status: 'queued' });
    expect(await documentsStamp(reads)).toBe(String(Number(first) + 1));
    expect(reads.n).toBe(2);

    await queryRows(database.db, sql`UPDATE documents SET filename = 'b.md' WHERE key = 'a.md'`);
    await documentsStamp(reads);
    expect(reads.n).toBe(3);

    await database.db.transaction(async (tx) => {
      await tx.insert(schema.documents).values({ key: 'c.md', filename: 'c.md', status: 'queued' });
    });
    expect(await documentsStamp(reads)).toBe(String(Number(first) + 2));
    expect(reads.n).toBe(4);

    // A transaction of reads alone (a semantic search's settings and query) leaves it.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('hnsw.ef_search', '40', true)`);
      await tx.select().from(schema.documents);
    });
    expect(await documentsStamp(reads)).toBe(String(Number(first) + 2));
    expect(reads.n).toBe(4);

    // A failed write and a rolled-back transaction move the clock too (nothing to tell them apart).
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(schema.documents).values({ key: 'd.md', filename: 'd.md', status: 'queued' });
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    expect(await documentsStamp(reads)).toBe(String(Number(first) + 2));
    expect(reads.n).toBe(5);
    expect(await documentsStamp(reads)).toBe(String(Number(first) + 2));
    expect(reads.n).toBe(5);
  });

  it('keeps the stamp through the writes of asking (history, conversations, the throttle), not through others', async () => {
    const reads = { n: 0 };
    await queryRows(database.db, sql`UPDATE documents SET status = status WHERE false`);
    await documentsStamp(reads);
    const conversation = (
      await database.db.insert(schema.conversations).values({ title: 'harbour' }).returning()
    )[0];
    await database.db
      .insert(schema.qaHistory)
      .values({ question: 'q?', answer: 'a.', mode: 'auto', conversationId: conversation?.id ?? '' });
    await queryRows(database.db, sql`UPDATE "conversations" SET title = 'port' WHERE false`);
    await database.db
      .insert(schema.askThrottle)
      .values({ subject: 'k', tokens: 1, updatedMs: 0, allowed: true })
      .onConflictDoUpdate({ target: schema.askThrottle.subject, set: { tokens: 2 } });
    await database.db.transaction(async (tx) => {
      await tx.delete(schema.qaHistory).where(sql`false`);
    });
    await documentsStamp(reads);
    expect(reads.n).toBe(1);

    // A statement writing a stamped table beside them moves the clock; so does one whose target is not named.
    await queryRows(
      database.db,
      sql`WITH h AS (DELETE FROM qa_history WHERE false RETURNING id) UPDATE documents SET status = status WHERE false`,
    );
    await documentsStamp(reads);
    expect(reads.n).toBe(2);
    await queryRows(database.db, sql`CREATE TEMP TABLE IF NOT EXISTS scratch (n int)`);
    await documentsStamp(reads);
    expect(reads.n).toBe(3);
  });

  it('reads again when a write ends while the stamp is being read', async () => {
    const reads = { n: 0 };
    await documentsStamp(reads);
    // The insert is sent after the stamp's read began and ends after it: the stamp read may or may
    // not hold it, so the next one must ask again.
    const stamping = stampUnlessUnwritten(database.db, 'test-race', async () => {
      const pending = database.db
        .insert(schema.documents)
        .values({ key: 'race.md', filename: 'race.md', status: 'queued' });
      const [row] = await queryRows<{ n: string }>(
        database.db,
        sql`SELECT count(*)::text AS n FROM documents`,
      );
      await pending;
      return row?.n ?? '';
    });
    const before = await stamping;
    const after = await stampUnlessUnwritten(database.db, 'test-race', async () => {
      const [row] = await queryRows<{ n: string }>(
        database.db,
        sql`SELECT count(*)::text AS n FROM documents`,
      );
      return row?.n ?? '';
    });
    const [row] = await queryRows<{ n: string }>(database.db, sql`SELECT count(*)::text AS n FROM documents`);
    expect(after).toBe(row?.n);
    expect(Number(before)).toBeLessThanOrEqual(Number(after));
  });
});

describe('write clock over Postgres', () => {
  it('has none: another process may write, so every stamp is read', async () => {
    const database = await openTestDatabase('node-postgres');
    try {
      let reads = 0;
      const read = async () => {
        reads++;
        return 'same';
      };
      await stampUnlessUnwritten(database.db, 'test', read);
      await stampUnlessUnwritten(database.db, 'test', read);
      expect(reads).toBe(2);
    } finally {
      await database.close();
    }
  });
});
