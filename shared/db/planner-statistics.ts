import { sql } from 'drizzle-orm';
import { errorFields, log } from '#shared/log/logger.ts';
import { type Db, queryRows } from './client.ts';

/** The first refresh comes after this many documents; later ones each time the corpus doubled. */
export const FIRST_REFRESH_AFTER = 50;

export interface PlannerStatistics {
  /** Counts one more document made ready; refreshes the statistics once the corpus doubled. Never throws. */
  documentReady(): Promise<void>;
}

/**
 * Keeps the embedded database's planner statistics up to date as documents arrive. PGlite has no
 * autovacuum, so nothing else runs ANALYZE: a corpus loaded into a fresh folder is planned as if
 * its tables were empty, and the statements of the Topics step then scan every document or link
 * row per call (on 5,183 abstracts without statistics, the earlier-documents join took 186 ms
 * instead of 4.5 ms and the weakest-topic delete 32 ms instead of 0.15 ms). `ANALYZE` samples a
 * bounded number of rows per table (about 1.2 s over 5,183 documents and their 50,000 nodes), and
 * runs after the first `FIRST_REFRESH_AFTER` documents of this process, then each time the live
 * corpus doubled: over a load of N documents, about twice the cost of one at N. Postgres and Aurora
 * analyze by themselves: only the embedded database uses this.
 *
 * @example const statistics = plannerStatistics(db); await statistics.documentReady();
 */
export function plannerStatistics(db: Db): PlannerStatistics {
  let ready = 0;
  let nextAt = FIRST_REFRESH_AFTER;
  let running = false;
  return {
    async documentReady() {
      ready += 1;
      if (running || ready < nextAt) return;
      running = true;
      try {
        const started = performance.now();
        await db.execute(sql`ANALYZE`);
        const [row] = await queryRows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM documents WHERE deleted_at IS NULL`,
        );
        // The next refresh once as many documents again were made ready here as the corpus holds.
        nextAt = ready + Math.max(FIRST_REFRESH_AFTER, Number(row?.n ?? 0));
        log.debug('database: planner statistics refreshed', {
          documents: Number(row?.n ?? 0),
          durationMs: Math.round(performance.now() - started),
        });
      } catch (error) {
        log.error('database: could not refresh the planner statistics', errorFields(error));
      } finally {
        running = false;
      }
    },
  };
}
