import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import { type SearchDeps, search } from '#shared/search/index.ts';
import { doc, indexCorpus, para, section, testEmbedder } from '../../helpers/corpus.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';

/** More leaves match "ocelot" than the candidate window holds; only the last also says "narwhal". */
const CROWD = doc(
  'Crowd',
  section(
    'Sightings',
    ...Array.from({ length: 60 }, (_, i) => para(`Sighting ${i + 1}: an ocelot crossed the trail.`)),
    para('Sighting 61: an ocelot and a narwhal, together.'),
  ),
);

describe.each(DRIVERS)('keyword search over common keywords (%s)', (driver) => {
  let database: Database;
  let deps: SearchDeps;

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    const embedder = testEmbedder();
    await indexCorpus(database.db, [{ filename: 'crowd.md', versions: [CROWD] }], embedder);
    deps = { db: database.db, access: ALL_COLLECTIONS, embedder, search: loadConfig({ env: {} }).search };
  });

  afterAll(async () => {
    await database?.close();
  });

  it('ranks the leaf matching every keyword first when it lies beyond the window of common matches', async () => {
    const hits = await search(deps, { query: 'ocelot narwhal', kind: 'keyword', limit: 5 });
    expect(hits).toHaveLength(5);
    expect(hits[0]?.content).toContain('narwhal');
    expect(hits[0]?.score).toBe(2);
    expect(hits.slice(1).map((h) => h.score)).toEqual([1, 1, 1, 1]);
  });

  it('returns single-keyword matches in reading order, up to the limit', async () => {
    const hits = await search(deps, { query: 'ocelot', kind: 'keyword', limit: 3 });
    expect(hits.map((h) => h.content)).toEqual([
      'Sighting 1: an ocelot crossed the trail.',
      'Sighting 2: an ocelot crossed the trail.',
      'Sighting 3: an ocelot crossed the trail.',
    ]);
  });
});
