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
 * The buffer cache of a short-lived PGlite: Postgres zeroes its shared memory at start, and the
 * default 128 MB cost a one-shot command ~1 s of CPU (of ~2.6 s to open a 1,000-document folder).
 */
export const SHORT_LIVED_SHARED_BUFFERS = '16MB';

/**
 * Opens PGlite with the extensions the schema uses (pgvector, pg_trgm); `dir` undefined means in
 * memory. `shortLived` (a one-shot command's read) starts it with a small buffer cache.
 */
export async function createPglite(
  dir: string | undefined,
  options: { shortLived?: boolean } = {},
): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }, { vector }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite-pgvector'),
  ]);
  const startParams = options.shortLived
    ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHORT_LIVED_SHARED_BUFFERS}`]
    : undefined;
  return PGlite.create(dir, { extensions: { vector, pg_trgm }, startParams });
}
