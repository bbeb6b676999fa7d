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
 * How much work a WebAssembly function does in V8's baseline code before it is optimised, 28 times
 * V8's default (1,800,000). Postgres's start runs thousands of functions a few times each (catalog
 * reads, the buffer cache's setup); at the default V8 optimised hundreds of them in background
 * threads during a server's start, ~0.5 s of CPU competing with the start itself on two cores
 * (`dropqa serve` on 1,000 documents, health answered: 2.2 -> 1.9 s, the start's CPU 2.0 -> 1.7 s).
 * The functions a long ingest or many searches run are optimised all the same, a moment later
 * (300 documents ingested: the database worker's CPU 22.0 s at the default, 22.4 s with it; search
 * p95 over 1,000 documents unchanged).
 */
const WASM_TIERING_BUDGET = 50_000_000;

/**
 * Opens PGlite with the extensions the schema uses (pgvector, pg_trgm); `dir` undefined means in
 * memory. `shortLived` (a one-shot command's read) starts it with the settings above, and has V8 run
 * the WebAssembly with its baseline compiler only: optimising Postgres's hot functions in background
 * threads cost ~1 s of CPU, more than it saves in a process that answers one command. Otherwise
 * hot functions are optimised after `WASM_TIERING_BUDGET`.
 */
export async function createPglite(
  dir: string | undefined,
  options: { shortLived?: boolean } = {},
): Promise<PGlite> {
  // Read when the module is compiled and instantiated (below), for every module this process
  // compiles after (Postgres's and its extensions'; OCR's, when images are read, optimises its hot
  // loops all the same).
  setFlagsFromString(options.shortLived ? '--liftoff-only' : `--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
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
