import { sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/index.ts';
import { askThrottle } from '../db/schema.ts';
import { RateLimitedError } from '../errors.ts';
import { ownerOf } from './owner.ts';

export type AskRate = Config['limits']['askRate'];

/** The bucket of the local server's one user (no signed-in subject). */
const LOCAL_SUBJECT = 'local';

export interface AskToken {
  allowed: boolean;
  /** Tokens left after this take. */
  tokens: number;
  /** Whole seconds until the next token, when refused. */
  retryAfterSeconds: number;
}

/**
 * Takes one token from `subject`'s bucket (`rate.burst` tokens, refilled at `rate.perMinute` a
 * minute) in one atomic statement, INSERT ... ON CONFLICT DO UPDATE ... RETURNING: the row lock
 * orders concurrent takes, so two requests never spend the same token, and it runs as is over the
 * Data API. Every SET expression reads the row as it was: the refill is computed once per take.
 *
 * @example await takeAskToken(db, 'user-sub', { perMinute: 6, burst: 3 }) // { allowed: true, tokens: 2, ... }
 */
export async function takeAskToken(
  db: Db,
  subject: string,
  rate: AskRate,
  nowMs = Date.now(),
): Promise<AskToken> {
  const perMs = rate.perMinute / 60_000;
  const refilled = sql`LEAST(${rate.burst}::double precision, ${askThrottle.tokens} + GREATEST(0::double precision, ${nowMs}::double precision - ${askThrottle.updatedMs}) * ${perMs}::double precision)`;
  const [row] = await db
    .insert(askThrottle)
    .values({ subject, tokens: rate.burst - 1, updatedMs: nowMs, allowed: true })
    .onConflictDoUpdate({
      target: askThrottle.subject,
      set: {
        allowed: sql`${refilled} >= 1`,
        tokens: sql`${refilled} - CASE WHEN ${refilled} >= 1 THEN 1 ELSE 0 END`,
        updatedMs: sql`GREATEST(${askThrottle.updatedMs}, ${nowMs}::bigint)`,
      },
    })
    .returning({ allowed: askThrottle.allowed, tokens: askThrottle.tokens });
  if (!row) throw new Error(`ask throttle: no row for ${subject}`);
  const tokens = Number(row.tokens);
  const retryAfterSeconds = row.allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
  return { allowed: row.allowed, tokens, retryAfterSeconds };
}

/**
 * Refuses a request past its user's `limits.askRate` with 429 and Retry-After (RateLimitedError):
 * the signed-in subject's bucket in Lambda, one bucket for the local server. Off when `perMinute` is 0.
 */
export function askRateLimit(db: Db, rate: AskRate, clock: () => number = Date.now): MiddlewareHandler {
  return async (c, next) => {
    if (rate.perMinute <= 0) return next();
    const take = await takeAskToken(db, ownerOf(c) ?? LOCAL_SUBJECT, rate, clock());
    if (!take.allowed) {
      throw new RateLimitedError(
        `Too many questions: at most ${rate.burst} at once and ${rate.perMinute} a minute; try again in ${take.retryAfterSeconds} s`,
        take.retryAfterSeconds,
      );
    }
    return next();
  };
}
