import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { createPglite, hasDrizzleParsers, installDrizzleParsers } from './pglite-parsers.ts';
import type { DrizzlePgliteClient } from './pglite-worker/client.ts';
import type * as schema from './schema.ts';
import { installVectorSerializer } from './vector-binary.ts';
import { attachWriteClock, countingWrites, type WriteClock } from './write-clock.ts';

/** The database handle every core function takes: the same drizzle API on PGlite, node-postgres or the Data API. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /** `pglite` (embedded), `postgres` (node-postgres on DATABASE_URL) or `data-api` (Aurora in Lambda). */
  driver: 'pglite' | 'postgres' | 'data-api';
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Opens the embedded PGlite database (with pgvector and pg_trgm) on this thread; `dir` undefined
 * means in memory. Its statements run on the caller's event loop and cannot be timed out: the local
 * product uses `openPgliteWorker`; this one serves tests, tools and the CLI's one-shot reads
 * (`shortLived`: a small buffer cache, quicker to start).
 */
export async function openPglite(
  dir?: string,
  options: { shortLived?: boolean } = {},
): Promise<Database & { pglite: PGlite }> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pglite = await createPglite(dir, options);
  const db = await migratedDrizzle(withDrizzleParsers(pglite));
  await installVectorSerializer(pglite);
  return { db, driver: 'pglite', pglite, close: () => pglite.close() };
}

/**
 * Opens the embedded PGlite database in a worker thread (`pglite-worker/`): its statements leave the
 * caller's event loop free, and one running past `statementTimeoutMs` (0: never) is answered with
 * SQLSTATE 57014; a file-backed database is then reopened from its folder.
 */
export async function openPgliteWorker(
  dir: string | undefined,
  statementTimeoutMs: number,
): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const { PgliteWorkerClient } = await import('./pglite-worker/client.ts');
  const client = await PgliteWorkerClient.open({ dir, statementTimeoutMs });
  try {
    const db = await migratedDrizzle(client.drizzleClient);
    // A new database has the vector type only now.
    await client.installSerializers();
    return { db, driver: 'pglite', close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * Drizzle over a PGlite client (in-process or the worker's proxy), with the migrations applied and
 * its writes counted (`write-clock.ts`: this process is the data folder's one writer).
 */
async function migratedDrizzle(client: DrizzlePgliteClient): Promise<Db> {
  // Each driver loads when chosen: the Lambda functions (Data API) never pay for PGlite or pg.
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }, schema] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    import('./schema.ts'),
  ]);
  const clock: WriteClock = { ticks: 0 };
  const db = drizzlePglite({ client: countingWrites(client, clock) as PGlite, schema }) as unknown as Db;
  attachWriteClock(db, clock);
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return db;
}

/**
 * The PGlite client drizzle gets: drizzle passes its parsers with every query, which PGlite merges
 * into its ~300 parsers each time (`installDrizzleParsers`); they are set on the instance once
 * instead and left out of each call. A call passing other parsers keeps them. Only drizzle reads
 * this instance's results (tests also serve it over the wire, unparsed).
 */
function withDrizzleParsers(pglite: PGlite): DrizzlePgliteClient {
  type Options = Parameters<PGlite['query']>[2];
  const lean = (options: Options): Options => {
    if (!hasDrizzleParsers(options?.parsers)) return options;
    installDrizzleParsers(pglite);
    const { parsers: _merged, ...rest } = options ?? {};
    return rest;
  };
  const client: DrizzlePgliteClient = {
    query: (text, params, options) => pglite.query(text, params, lean(options)),
    transaction: (run) =>
      pglite.transaction((tx) =>
        run(
          Object.assign(Object.create(tx) as typeof tx, {
            query: ((text, params, options) => tx.query(text, params, lean(options))) as typeof tx.query,
          }),
        ),
      ),
  };
  // The drizzle PGlite driver calls nothing else on its client.
  return client;
}

/**
 * Opens any Postgres through node-postgres and applies the migrations. Every statement is cancelled
 * by the server after `statementTimeoutMs` (0: never); at most `maxConnections` at once.
 */
export async function openPostgres(
  url: string,
  statementTimeoutMs = 0,
  maxConnections = 4,
): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzleNodePg }, { migrate: migrateNodePg }, schema] = await Promise.all(
    [
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
      import('./schema.ts'),
    ],
  );
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  await migrateNodePg(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, driver: 'postgres', close: () => pool.end() };
}

/**
 * The database the configuration names: Aurora through the Data API if `database.dataApi` is set,
 * else `database.url` (node-postgres), else PGlite under `<dataDir>/db`, in a worker thread unless
 * `database.embedded.worker` is false or `shortLived` is set. `database.statementTimeoutMs` applies to all but the Data API.
 */
export async function openDatabase(config: {
  dataDir: string;
  database: {
    url?: string;
    statementTimeoutMs?: number;
    /** `shortLived`: a one-shot command's database on its thread, started with a small buffer cache. */
    embedded?: { worker?: boolean; shortLived?: boolean };
    dataApi?: { resourceArn: string; secretArn: string; database: string };
  };
}): Promise<Database> {
  if (config.database.dataApi) {
    // Loaded on demand: local processes never pay for the RDS Data API client.
    const { openDataApi } = await import('./data-api.ts');
    return openDataApi({ ...config.database.dataApi, migrationsFolder: MIGRATIONS_FOLDER });
  }
  if (config.database.url) return openPostgres(config.database.url, config.database.statementTimeoutMs);
  const dir = resolve(config.dataDir, 'db');
  const embedded = config.database.embedded;
  if (embedded?.shortLived) return openPglite(dir, { shortLived: true });
  if (embedded?.worker === false) return openPglite(dir);
  return openPgliteWorker(dir, config.database.statementTimeoutMs ?? 0);
}

/** Runs raw SQL and returns its rows, whichever driver is underneath. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
