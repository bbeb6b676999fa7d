import type { Db } from './client.ts';
import type { DrizzlePgliteClient } from './pglite-worker/client.ts';

/**
 * Counts what may have changed an embedded database's stamps: every statement but a read or a write
 * to tables no stamp reads (`mayWrite`), and every transaction holding one, once it ended. A PGlite
 * data folder has one process writing it, so when the count is the same after a read as before it,
 * nothing was written since that read: what was derived from it still holds without asking the
 * database again. Postgres and the Data API have writers elsewhere and no clock.
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
 * Tables no stamp is read from: what asking writes (each answer's history, the conversation it
 * belongs to, the ask throttle). A write to these alone leaves the clock where it was, so the
 * question after an answer does not read the stamps of the documents again (at 50,000 documents the
 * in-memory index's fingerprint was 150-450 ms of every answer after the first). A stamp over one of
 * these tables would have to leave this list.
 */
export const UNSTAMPED_TABLES: ReadonlySet<string> = new Set(['qa_history', 'conversations', 'ask_throttle']);

/**
 * False for a read: a `SELECT`, or a `WITH` query whose statements are all `SELECT`s (a recursive
 * read of a node's ancestors, say); false too for a write whose every target is in
 * `UNSTAMPED_TABLES`. Anything not recognised counts as a write (DDL, a target it cannot name): a read
 * taken for a write costs one stamp read more; never the other way round.
 */
function mayWrite(text: string): boolean {
  if (/^\s*select\s/i.test(text)) return false;
  if (/^\s*with\s/i.test(text) && !/\b(?:insert|update|delete|merge)\b/i.test(text)) return false;
  // An upsert's `DO UPDATE SET` writes the table its INSERT names.
  const targets = [
    ...text
      .replace(/\bdo\s+update\s+set\b/gi, '')
      .matchAll(/\b(?:insert\s+into|update|delete\s+from|merge\s+into)\s+"?([a-z_][a-z0-9_]*)"?/gi),
  ].map((match) => (match[1] ?? '').toLowerCase());
  return targets.length === 0 || targets.some((table) => !UNSTAMPED_TABLES.has(table));
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
