import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { type Database, openPglite, openPostgres } from '#shared/db/index.ts';

export type DriverName = 'pglite' | 'node-postgres';

/** Both drivers every database test runs through: `describe.each(DRIVERS)(...)`. */
export const DRIVERS: DriverName[] = ['pglite', 'node-postgres'];

/**
 * A fresh, migrated, in-memory database on the named driver. `node-postgres` talks the real wire
 * protocol to PGlite served by pglite-socket on a loopback port.
 */
export async function openTestDatabase(driver: DriverName): Promise<Database> {
  const embedded = await openPglite();
  if (driver === 'pglite') return embedded;
  const server = new PGLiteSocketServer({
    db: embedded.pglite,
    port: 0,
    host: '127.0.0.1',
    // One connection: pglite-socket serves every connection from one PGlite and interleaves their
    // extended-protocol messages ("bind message supplies 1 parameters, but ... requires 2", or a uuid
    // bound to another statement's array: "malformed array literal: <uuid>", seen with 4 connections
    // in the lifecycle test of 10 concurrent uploads of one key) when queries run concurrently, which a
    // real Postgres never does.
    maxConnections: 1,
  });
  await server.start();
  const address = (server as unknown as { server: { address(): { port: number } } }).server.address();
  const remote = await openPostgres(
    `postgres://postgres:postgres@127.0.0.1:${address.port}/postgres?sslmode=disable`,
    0,
    1,
  );
  return {
    db: remote.db,
    driver: 'postgres',
    async close() {
      await remote.close();
      await server.stop();
      await embedded.close();
    },
  };
}
