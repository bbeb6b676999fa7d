/** A `SET [LOCAL | SESSION] statement_timeout` read from a statement's text. */
export interface TimeoutSetting {
  scope: 'local' | 'session';
  /** Milliseconds; 0 means none, undefined means back to the default (`RESET`, `TO DEFAULT`). */
  ms: number | undefined;
}

const SET =
  /^\s*SET\s+(?:(LOCAL|SESSION)\s+)?statement_timeout\s*(?:=|\bTO\b)\s*'?\s*([^';\s]+)\s*'?\s*;?\s*$/i;
const RESET = /^\s*RESET\s+statement_timeout\s*;?\s*$/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The statement timeout a statement sets, or undefined if it sets none (or one this cannot read, which
 * PGlite then refuses itself). PGlite accepts `statement_timeout` but never enforces it, so the
 * embedded database's worker client reads it from the statements it forwards and enforces it.
 *
 * @example parseTimeoutSetting('SET LOCAL statement_timeout = 0') // { scope: 'local', ms: 0 }
 */
export function parseTimeoutSetting(text: string): TimeoutSetting | undefined {
  if (RESET.test(text)) return { scope: 'session', ms: undefined };
  const match = SET.exec(text);
  if (!match) return undefined;
  const scope = match[1]?.toUpperCase() === 'LOCAL' ? 'local' : 'session';
  const value = (match[2] ?? '').toLowerCase();
  if (value === 'default') return { scope, ms: undefined };
  const amount = /^(\d+(?:\.\d+)?)(ms|s|min|h|d)?$/.exec(value);
  if (!amount) return undefined;
  return { scope, ms: Math.round(Number(amount[1]) * (UNIT_MS[amount[2] ?? 'ms'] ?? 1)) };
}
