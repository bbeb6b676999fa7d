import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

/** The database handle every core function takes: the same drizzle API on PGlite, node-postgres or the Data API. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /** `pglite` (embedded), `postgres` (node-postgres on DATABASE_URL) or `data-api` (Aurora in Lambda). */
  driver: 'pglite' | 'postgres' | 'data-api';
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Opens the embedded PGlite database (with pgvector and pg_trgm); `dir` undefined means in memory. */
export async function openPglite(dir?: string): Promise<Database & { pglite: PGlite }> {
  if (dir) mkdirSync(dir, { recursive: true });
  // Each driver loads when chosen: the Lambda functions (Data API) never pay for PGlite or pg.
  const [
    { PGlite },
    { pg_trgm },
    { vector },
    { drizzle: drizzlePglite },
    { migrate: migratePglite },
    schema,
  ] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite-pgvector'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    import('./schema.ts'),
  ]);
  const pglite = await PGlite.create(dir, { extensions: { vector, pg_trgm } });
  const db = drizzlePglite({ client: withDrizzleParsers(pglite), schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, driver: 'pglite', pglite, close: () => pglite.close() };
}

/** The types drizzle reads as text from PGlite (it maps them itself): dates, timestamps, intervals and their arrays. */
const DRIZZLE_TEXT_TYPES = [1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231];
const asText = (value: string) => value;

/**
 * The PGlite client drizzle gets: drizzle passes its parsers (the types above kept as text) with
 * every query, and PGlite merges them into its ~300 parsers each time, about 0.1 ms a statement (a
 * sixth of a small one; ingestion runs ~80 statements a document). They are set on the instance once
 * instead (again if PGlite reloads its array parsers), and left out of each call. A call passing
 * other parsers keeps them. Only drizzle reads this instance's results (tests also serve it over the
 * wire, unparsed).
 */
function withDrizzleParsers(pglite: PGlite): PGlite {
  const parsers = pglite.parsers as Record<number, (value: string, type: number) => unknown>;
  type Options = Parameters<PGlite['query']>[2];
  const lean = (options: Options): Options => {
    const given = options?.parsers;
    if (!given) return options;
    const types = Object.keys(given);
    const same =
      types.length === DRIZZLE_TEXT_TYPES.length &&
      types.every((type) => DRIZZLE_TEXT_TYPES.includes(Number(type)));
    if (!same) return options;
    for (const type of DRIZZLE_TEXT_TYPES) if (parsers[type] !== asText) parsers[type] = asText;
    const { parsers: _merged, ...rest } = options;
    return rest;
  };
  const client: Pick<PGlite, 'query' | 'transaction'> = {
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
  return client as PGlite;
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
 * else `database.url` (node-postgres, with `database.statementTimeoutMs`), else PGlite under `<dataDir>/db`.
 */
export async function openDatabase(config: {
  dataDir: string;
  database: {
    url?: string;
    statementTimeoutMs?: number;
    dataApi?: { resourceArn: string; secretArn: string; database: string };
  };
}): Promise<Database> {
  if (config.database.dataApi) {
    // Loaded on demand: local processes never pay for the RDS Data API client.
    const { openDataApi } = await import('./data-api.ts');
    return openDataApi({ ...config.database.dataApi, migrationsFolder: MIGRATIONS_FOLDER });
  }
  if (config.database.url) return openPostgres(config.database.url, config.database.statementTimeoutMs);
  return openPglite(resolve(config.dataDir, 'db'));
}

/** Runs raw SQL and returns its rows, whichever driver is underneath. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
