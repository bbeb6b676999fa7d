import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '#shared/db/client.ts';
import { TRIGRAM_INDEX } from '#shared/db/deferred-indexes.ts';

describe('deferred indexes', () => {
  it('rebuilds the trigram index exactly as the migrations define it', () => {
    const migrations = readdirSync(MIGRATIONS_FOLDER)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => readFileSync(join(MIGRATIONS_FOLDER, f), 'utf8'))
      .join('\n');
    const created = migrations.match(new RegExp(`CREATE INDEX "${TRIGRAM_INDEX.name}"[^;]*;`))?.[0];
    expect(created?.replace(/;$/, '')).toBe(TRIGRAM_INDEX.create.replace(' IF NOT EXISTS', ''));
  });
});
