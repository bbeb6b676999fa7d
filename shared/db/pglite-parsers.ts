import { setFlagsFromString } from 'node:v8';
import type { PGlite } from '@electric-sql/pglite';

/** The types drizzle reads as text from PGlite (it maps them itself): dates, timestamps, intervals and their arrays. */
export const DRIZZLE_TEXT_TYPES = [1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231];
const asText = (value: string) => value;

/**
 * Sets drizzle's parsers (the types above kept as text) on a PGlite instance whose results only
 * drizzle reads. Drizzle passes them with every query, and PGlite merges them into its ~300 parsers
 * each time, about 0.1 ms a statement (a sixth of a small one; ingestion runs ~80 statements a
 * document). Idempotent: called again if PGlite reloads its array parsers.
 */
export function installDrizzleParsers(pglite: PGlite): void {
  const parsers = pglite.parsers as Record<number, (value: string, type: number) => unknown>;
  for (const type of DRIZZLE_TEXT_TYPES) if (parsers[type] !== asText) parsers[type] = asText;
}

/** Whether query options carry exactly drizzle's parsers (which the instance already has). */
export function hasDrizzleParsers(parsers: Record<number, unknown> | undefined): boolean {
  if (!parsers) return false;
  const types = Object.keys(parsers);
  return (
    types.length === DRIZZLE_TEXT_TYPES.length &&
    types.every((type) => DRIZZLE_TEXT_TYPES.includes(Number(type)))
  );
}

/**
 * Postgres settings of a short-lived PGlite. Postgres zeroes its shared memory at start (the
 * default 128 MB buffer cache cost a one-shot command ~1 s of CPU); a one-shot read also needs few
 * backend slots (each one sizes lock and process tables).
 */
export const SHORT_LIVED_SETTINGS = ['shared_buffers=4MB', 'max_connections=4'];

/**
 * Opens PGlite with the extensions the schema uses (pgvector, pg_trgm); `dir` undefined means in
 * memory. `shortLived` (a one-shot command's read) starts it with the settings above, and has V8 run
 * the WebAssembly with its baseline compiler only: optimising Postgres's hot functions in background
 * threads cost ~1 s of CPU, more than it saves in a process that answers one command.
 */
export async function createPglite(
  dir: string | undefined,
  options: { shortLived?: boolean } = {},
): Promise<PGlite> {
  // Read when the module is compiled (below), for every module this process compiles after.
  if (options.shortLived) setFlagsFromString('--liftoff-only');
  const [{ PGlite }, { pg_trgm }, { vector }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite-pgvector'),
  ]);
  const startParams = options.shortLived
    ? [...PGlite.defaultStartParams, ...SHORT_LIVED_SETTINGS.flatMap((setting) => ['-c', setting])]
    : undefined;
  return PGlite.create(dir, { extensions: { vector, pg_trgm }, startParams });
}
