import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '#shared/db/client.ts';
import { DEFERRED_INDEXES } from '#shared/db/deferred-indexes.ts';

describe('deferred indexes', () => {
  const migrations = readdirSync(MIGRATIONS_FOLDER)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => readFileSync(join(MIGRATIONS_FOLDER, f), 'utf8'))
    .join('\n');

  it.each(DEFERRED_INDEXES.map((index) => [index.name, index]))(
    'rebuilds %s exactly as the migrations define it',
    (name, index) => {
      const created = [...migrations.matchAll(new RegExp(`CREATE INDEX "${name}"[^;]*;`, 'g'))].at(-1)?.[0];
      expect(created?.replace(/;$/, '')).toBe(index.create.replace(' IF NOT EXISTS', ''));
    },
  );

  it('defers the GIN indexes of keyword and full-text search', () => {
    expect(DEFERRED_INDEXES.map((index) => index.name)).toEqual([
      'nodes_index_text_trgm',
      'nodes_search_vector',
    ]);
  });
});
