import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { takeAskToken } from '#shared/api/ask-throttle.ts';
import { loadConfig } from '#shared/config/index.ts';
import { type Database, openPglite, queryRows } from '#shared/db/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { lambdaApp } from '../../../functions/ask/app.ts';
import { InvalidTokenError } from '../../../functions/ask/cognito-token.ts';
import { TOKEN_HEADER } from '../../../functions/ask/require-user.ts';
import { openDataApiTestDatabase } from '../../fakes/data-api-db.ts';

const DATABASES: [string, () => Promise<Database>][] = [
  ['PGlite', () => openPglite()],
  ['the Data API', () => openDataApiTestDatabase()],
];

describe.each(DATABASES)('the ask token bucket over %s', (_name, open) => {
  let database: Database;
  // 3 at once, then one every 10 s.
  const rate = { perMinute: 6, burst: 3 };
  const t0 = 1_800_000_000_000;

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('gives a burst, then one token per refill interval, with the wait until the next', async () => {
    const take = (atMs: number) => takeAskToken(database.db, 'alice', rate, atMs);
    expect((await take(t0)).allowed).toBe(true);
    expect((await take(t0)).allowed).toBe(true);
    expect(await take(t0)).toMatchObject({ allowed: true, tokens: 0 });
    expect(await take(t0)).toMatchObject({ allowed: false, retryAfterSeconds: 10 });
    expect(await take(t0 + 4_000)).toMatchObject({ allowed: false, retryAfterSeconds: 6 });
    expect(await take(t0 + 10_000)).toMatchObject({ allowed: true });
    expect(await take(t0 + 10_500)).toMatchObject({ allowed: false, retryAfterSeconds: 10 });
    // An hour later the bucket is full again, never fuller than the burst.
    const later = t0 + 3_600_000;
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await take(later)).allowed);
    expect(results).toEqual([true, true, true, false]);
  });

  it("keeps each user's bucket apart", async () => {
    expect((await takeAskToken(database.db, 'bob', rate, t0)).allowed).toBe(true);
    expect((await takeAskToken(database.db, 'alice', rate, t0 + 3_600_001)).allowed).toBe(false);
  });

  it('never spends a token twice under concurrent requests', async () => {
    const takes = await Promise.all(
      Array.from({ length: 8 }, () => takeAskToken(database.db, 'carol', rate, t0)),
    );
    expect(takes.filter((t) => t.allowed)).toHaveLength(3);
  });
});

describe('the ask API over its limit', () => {
  const USERS: Record<string, string> = { 'token-alice': 'alice-sub', 'token-bob': 'bob-sub' };
  let dir: string;
  let rt: Runtime;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-throttle-'));
    rt = await openRuntime(
      loadConfig({
        env: {},
        file: false,
        overrides: { dataDir: dir, limits: { askRate: { perMinute: 1, burst: 2 } } },
      }),
    );
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function ask(app: { request: ReturnType<typeof createApp>['request'] }, token?: string) {
    return app.request('/api/qa/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { [TOKEN_HEADER]: token } : {}) },
      body: JSON.stringify({ question: 'What is a heron?' }),
    });
  }

  it('answers 429 with Retry-After per Cognito user, the other user still answered', async () => {
    const app = lambdaApp(
      rt,
      async (token) => {
        const sub = USERS[token];
        if (!sub) throw new InvalidTokenError('unknown token');
        return { sub, token_use: 'id', 'cognito:groups': ['admin'] };
      },
      {},
    );
    for (let i = 0; i < 2; i++) {
      const res = await ask(app, 'token-alice');
      expect(res.status).toBe(200);
      await res.text();
    }
    const refused = await ask(app, 'token-alice');
    expect(refused.status).toBe(429);
    // One token a minute: the next one within 60 s.
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({
      error: {
        code: 'rate_limited',
        message: expect.stringMatching(/^Too many questions: .*try again in \d+ s$/),
        reason: 'retry_after',
        params: { seconds: retryAfter },
      },
    });
    const bob = await ask(app, 'token-bob');
    expect(bob.status).toBe(200);
    await bob.text();
    const buckets = await queryRows<{ subject: string }>(
      rt.db,
      sql`SELECT subject FROM ask_throttle ORDER BY subject`,
    );
    expect(buckets.map((b) => b.subject)).toEqual(['alice-sub', 'bob-sub']);
  });

  it('is off with the default settings (the local server)', async () => {
    const config = loadConfig({ env: {}, file: false, overrides: { dataDir: dir } });
    expect(config.limits.askRate.perMinute).toBe(0);
    const app = createApp({ ...rt, config });
    for (let i = 0; i < 3; i++) {
      const res = await ask(app);
      expect(res.status).toBe(200);
      await res.text();
    }
    const buckets = await queryRows(rt.db, sql`SELECT subject FROM ask_throttle WHERE subject = 'local'`);
    expect(buckets).toEqual([]);
  });
});
