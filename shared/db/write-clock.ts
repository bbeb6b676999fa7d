import type { Db } from './client.ts';
import type { DrizzlePgliteClient } from './pglite-worker/client.ts';

/**
 * Counts what may have changed an embedded database: every statement but a read (`mayWrite`), and
 * every transaction holding one, once it ended. A PGlite data folder has one process writing it, so
 * when the count is the same after a read as before it, nothing was written since that read: what
 * was derived from it still holds without asking the database again. Postgres and the Data API have
 * writers elsewhere and no clock.
 */
export interface WriteClock {
  ticks: number;
}

const clocks = new WeakMap<Db, WriteClock>();

/** The client counting its writes on `clock`: counted once a statement or transaction ended, whatever its outcome. */
export function countingWrites(client: DrizzlePgliteClient, clock: WriteClock): DrizzlePgliteClient {
  return {
    query: async (text, params, options) => {
      try {
        return await client.query(text, params, options);
      } finally {
        if (mayWrite(text)) clock.ticks++;
      }
    },
    transaction: async (run) => {
      let wrote = false;
      try {
        return await client.transaction((tx) =>
          run(
            Object.assign(Object.create(tx) as typeof tx, {
              query: ((text, params, options) => {
                if (mayWrite(text)) wrote = true;
                return tx.query(text, params, options);
              }) as typeof tx.query,
            }),
          ),
        );
      } finally {
        // Counted once it ended: its writes are seen from then on (or rolled back).
        if (wrote) clock.ticks++;
      }
    },
  };
}

/**
 * False for a read: a `SELECT`, or a `WITH` query whose statements are all `SELECT`s (a recursive
 * read of a node's ancestors, say). A read taken for a write costs one stamp read more; never the
 * other way round.
 */
function mayWrite(text: string): boolean {
  if (/^\s*select\s/i.test(text)) return false;
  return !/^\s*with\s/i.test(text) || /\b(?:insert|update|delete|merge)\b/i.test(text);
}

/** Records that `db` runs on a client counting on `clock` (`countingWrites`). */
export function attachWriteClock(db: Db, clock: WriteClock): void {
  clocks.set(db, clock);
}

const stamps = new WeakMap<Db, Map<string, { ticks: number; stamp: string }>>();

/**
 * The result of `read`, a stamp of some part of the database (a count and a hash, say), for the
 * cache named `purpose`: read again unless `db` has a write clock that has not moved since the last
 * read for that purpose. Without a clock (Postgres, the Data API, a transaction's handle) it always reads.
 */
export async function stampUnlessUnwritten(
  db: Db,
  purpose: string,
  read: () => Promise<string>,
): Promise<string> {
  const clock = clocks.get(db);
  if (!clock) return read();
  let known = stamps.get(db);
  if (!known) {
    known = new Map();
    stamps.set(db, known);
  }
  const last = known.get(purpose);
  if (last?.ticks === clock.ticks) return last.stamp;
  // Taken before the read: a write ending after this point moves the clock past it.
  const ticks = clock.ticks;
  const stamp = await read();
  known.set(purpose, { ticks, stamp });
  return stamp;
}
