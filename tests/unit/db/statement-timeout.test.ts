import { describe, expect, it } from 'vitest';
import { parseTimeoutSetting } from '#shared/db/pglite-worker/statement-timeout.ts';

describe('parseTimeoutSetting', () => {
  it('reads SET LOCAL as the transaction timeout, in milliseconds', () => {
    expect(parseTimeoutSetting('SET LOCAL statement_timeout = 0')).toEqual({ scope: 'local', ms: 0 });
    expect(parseTimeoutSetting("set local statement_timeout to '2s'")).toEqual({ scope: 'local', ms: 2000 });
  });

  it('reads SET and SET SESSION as the session timeout, with units', () => {
    expect(parseTimeoutSetting('SET statement_timeout = 200')).toEqual({ scope: 'session', ms: 200 });
    expect(parseTimeoutSetting("SET SESSION statement_timeout = '1.5min';")).toEqual({
      scope: 'session',
      ms: 90_000,
    });
  });

  it('reads RESET and DEFAULT as back to the configured timeout', () => {
    expect(parseTimeoutSetting('RESET statement_timeout')).toEqual({ scope: 'session', ms: undefined });
    expect(parseTimeoutSetting('SET LOCAL statement_timeout TO DEFAULT')).toEqual({
      scope: 'local',
      ms: undefined,
    });
  });

  it('ignores other statements and values it cannot read', () => {
    expect(parseTimeoutSetting('SELECT 1')).toBeUndefined();
    expect(parseTimeoutSetting("SET LOCAL maintenance_work_mem = '512MB'")).toBeUndefined();
    expect(parseTimeoutSetting("SET statement_timeout = 'soon'")).toBeUndefined();
    expect(parseTimeoutSetting('SET statement_timeout = 0; SELECT pg_sleep(100)')).toBeUndefined();
  });
});
