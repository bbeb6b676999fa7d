/** The SQLSTATE of a database error, looked for through wrappers (drizzle puts the driver's error in `cause`). */
export function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, hops = 0; e && hops < 5; hops++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The database's own message for an error, without the failed query text drizzle prepends. */
export function databaseMessage(error: unknown): string {
  for (let e: unknown = error, hops = 0; e && hops < 5; hops++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && e instanceof Error) return e.message;
    e = (e as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}
