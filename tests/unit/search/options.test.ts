import { describe, expect, it } from 'vitest';
import { searchQuery } from '#shared/api/routes/search.ts';
import { searchOptionsSchema } from '#shared/search/options.ts';

describe('searchOptionsSchema', () => {
  it('coerces string flags and fills the defaults', () => {
    expect(searchOptionsSchema.parse({ kind: 'keyword', limit: '5', version: '2' })).toEqual({
      kind: 'keyword',
      limit: 5,
      mode: 'exact',
      version: 2,
    });
    expect(searchOptionsSchema.parse({})).toEqual({ kind: 'hybrid', limit: 10, mode: 'exact' });
  });

  it('rejects an unknown kind, a bad keyword mode and an out-of-range limit', () => {
    for (const bad of [
      { kind: 'vector' },
      { mode: 'glob' },
      { limit: '0' },
      { limit: '101' },
      { version: '0' },
    ])
      expect(searchOptionsSchema.safeParse(bad).success).toBe(false);
  });

  it('is what the HTTP query validates its shared options with', () => {
    const options = { kind: 'fuzzy-kind', limit: '3' };
    expect(searchQuery.safeParse({ q: 'x', ...options }).success).toBe(false);
    expect(searchQuery.parse({ q: ' budget ', kind: 'keyword', mode: 'regex', limit: '3' })).toMatchObject({
      q: 'budget',
      ...searchOptionsSchema.parse({ kind: 'keyword', mode: 'regex', limit: '3' }),
    });
  });
});
