import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import { type SearchDeps, type SearchKind, search } from '#shared/search/index.ts';
import { doc, indexCorpus, para, testEmbedder } from '../../helpers/corpus.ts';
import { openTestDatabase } from '../../helpers/db.ts';

/** Keys in an order unlike the order of indexing (node ids are random whatever the order). */
const KEYS = ['eval/set/q7.md', 'eval/set/b2.md', 'eval/set/z9.md', 'eval/set/a1.md', 'eval/set/m5.md'];
/** Every document the same page: two equal paragraphs, so every leaf ties with every other. */
const PAGE = doc(
  '招生计划',
  para('英语保送生招生计划人数 budget plan'),
  para('英语保送生招生计划人数 budget plan'),
);

describe('equal scores', () => {
  let database: Database;
  const embedder = testEmbedder();
  const config = loadConfig({ env: {} }).search;
  const deps = (memoryIndex: boolean): SearchDeps => ({
    db: database.db,
    access: ALL_COLLECTIONS,
    embedder,
    search: { ...config, bm25: { ...config.bm25, memoryIndex } },
  });
  /** Document key then ordinal, as the hits of near-duplicate pages must come back. */
  const expected = [...KEYS].sort().flatMap((key) => [`${key}#0`, `${key}#1`]);

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await indexCorpus(
      database.db,
      KEYS.map((key) => ({ filename: 'page.md', key, versions: [PAGE] })),
      embedder,
    );
  });

  afterAll(async () => {
    await database?.close();
  });

  const cases: [string, SearchKind, boolean][] = [
    ['full-text from memory', 'fulltext', true],
    ['full-text in SQL', 'fulltext', false],
    ['semantic', 'semantic', true],
    ['hybrid', 'hybrid', true],
  ];

  it.each(cases)('%s orders them by document key, then ordinal', async (_name, kind, memoryIndex) => {
    for (const query of ['英语保送生招生计划人数是多少？', 'budget plan']) {
      const hits = await search(deps(memoryIndex), { query, kind, limit: 20 });
      const ordinals = new Map<string, number[]>();
      for (const hit of hits)
        ordinals.set(hit.documentKey, [...(ordinals.get(hit.documentKey) ?? []), hit.ordinal]);
      // Ordinals as ranks within each document (the first leaf's ordinal need not be 0).
      const rank = (hit: (typeof hits)[number]) =>
        [...(ordinals.get(hit.documentKey) ?? [])].sort((a, b) => a - b).indexOf(hit.ordinal);
      expect(new Set(hits.map((h) => h.score)).size, `${kind} ${query}`).toBe(1);
      expect(
        hits.map((hit) => `${hit.documentKey}#${rank(hit)}`),
        `${kind} ${query}`,
      ).toEqual(expected);
    }
  });
});
