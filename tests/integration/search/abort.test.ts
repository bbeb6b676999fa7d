import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { retrievePassages, type SearchDeps, type SearchKind, search } from '#shared/search/index.ts';
import { doc, indexCorpus, para, testEmbedder } from '../../helpers/corpus.ts';
import { openTestDatabase } from '../../helpers/db.ts';

describe('a search whose asker goes away', () => {
  let database: Database;
  const inner = testEmbedder();
  /** Aborted while the query is embedded: the asker leaves once the search has begun. */
  let leaving: AbortController | undefined;
  const embedder: Embedder = {
    model: inner.model,
    dimensions: inner.dimensions,
    embed: async (texts) => {
      leaving?.abort(new DOMException('the asker went away', 'AbortError'));
      return inner.embed(texts);
    },
  };
  const deps = (): SearchDeps => ({
    db: database.db,
    access: ALL_COLLECTIONS,
    embedder,
    search: loadConfig({ env: {} }).search,
  });

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await indexCorpus(
      database.db,
      [{ filename: 'plan.md', versions: [doc('Plan', para('The budget grew.'))] }],
      inner,
    );
  });

  afterAll(async () => {
    await database?.close();
  });

  it.each(['semantic', 'hybrid'] as SearchKind[])(
    '%s search rejects instead of returning hits',
    async (kind) => {
      expect(await search(deps(), { query: 'budget', kind })).not.toHaveLength(0);
      leaving = new AbortController();
      await expect(search(deps(), { query: 'budget', kind, signal: leaving.signal })).rejects.toThrow(
        'the asker went away',
      );
    },
  );

  it('the passages a question retrieves reject instead of returning hits', async () => {
    leaving = new AbortController();
    await expect(retrievePassages(deps(), 'budget', {}, 5, leaving.signal)).rejects.toThrow(
      'the asker went away',
    );
  });
});
