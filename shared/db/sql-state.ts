/** A Data API `DatabaseErrorException` carries the SQLSTATE only in its message: `...; SQLState: 40P01`. */
const DATA_API_SQLSTATE = /; SQLState: ([0-9A-Z]{5})\s*$/;

/**
 * The SQLSTATE of a database error, looked for through wrappers (drizzle puts the driver's error in
 * `cause`): the driver's `code` (PGlite, node-postgres), or the Data API's message suffix.
 *
 * @example sqlState(error) === '40P01' // a deadlock, whichever driver reported it
 */
export function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, hops = 0; e && hops < 5; hops++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    if (e instanceof Error && e.name === 'DatabaseErrorException') {
      const found = DATA_API_SQLSTATE.exec(e.message)?.[1];
      if (found) return found;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The database's own message for an error, without the failed query text drizzle prepends (nor the
 * Data API's `ERROR:` prefix and `SQLState` suffix).
 */
export function databaseMessage(error: unknown): string {
  for (let e: unknown = error, hops = 0; e && hops < 5; hops++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && e instanceof Error) return e.message;
    if (e instanceof Error && e.name === 'DatabaseErrorException')
      return e.message.replace(/^ERROR:\s*/, '').replace(DATA_API_SQLSTATE, '');
    e = (e as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}
