import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { type Database, queryRows } from '#shared/db/index.ts';
import { vectorIndexName } from '#shared/index/vector-index.ts';
import { createIngestService } from '#shared/pipeline/ingest.ts';
import { activate } from '#shared/pipeline/steps/activate.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { fulltextSearch } from '#shared/search/fulltext.ts';
import type { SearchDeps } from '#shared/search/types.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { testDeps, utf8 } from './fixtures.ts';

describe('bulk loads', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db);
  });
  afterAll(async () => {
    await deps.dispose();
    await database.close();
  });

  const indexExists = async (name = vectorIndexName(deps.providers.embedder)) => {
    const rows = await queryRows<{ n: number }>(
      deps.db,
      sql`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = ${name}`,
    );
    return rows[0]?.n === 1;
  };
  /** Full-text search through the database's GIN index (not the in-memory postings). */
  const searchDeps = (): SearchDeps => ({
    db: deps.db,
    access: ALL_COLLECTIONS,
    embedder: deps.providers.embedder,
    search: { ...deps.config.search, bm25: { ...deps.config.search.bm25, memoryIndex: false } },
  });
  /** A service whose Activate step first notes whether the index exists at that moment. */
  const observed = (bulkMinFiles: number, seen: boolean[]) =>
    createIngestService(deps, {
      bulkMinFiles,
      steps: {
        Activate: async (input, d) => {
          seen.push(await indexExists());
          return activate(input, d);
        },
      },
    });
  const files = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      key: `${prefix}/doc-${i}.md`,
      bytes: utf8(`# Doc ${i}\n\nParagraph ${i} about herons and egrets.\n`),
    }));

  it('builds the vector index once, after the load, when the load outgrows the corpus', async () => {
    const seen: boolean[] = [];
    const service = observed(3, seen);
    const outcomes = await service.ingest(files('bulk', 4));
    expect(outcomes.every((o) => o.status === 'ready')).toBe(true);
    expect(seen).toEqual([false, false, false, false]);
    expect(await indexExists()).toBe(true);
  });

  it('builds the full-text GIN index after the load, and full-text search finds the same without it', async () => {
    const during: { exists: boolean; hits: string[] }[] = [];
    const service = createIngestService(deps, {
      bulkMinFiles: 3,
      steps: {
        Activate: async (input, d) => {
          const out = await activate(input, d);
          const hits = await fulltextSearch(searchDeps(), 'herons', {}, 50);
          during.push({
            exists: await indexExists('nodes_search_vector'),
            hits: hits.map((h) => h.nodeId),
          });
          return out;
        },
      },
    });
    // The same load as the test before (same keys and bytes): re-uploaded under other keys.
    const outcomes = await service.ingest(files('gin', 5));
    expect(outcomes.every((o) => o.status === 'ready')).toBe(true);
    expect(during.map((d) => d.exists)).toEqual([false, false, false, false, false]);
    expect(await indexExists('nodes_search_vector')).toBe(true);
    const last = during.at(-1)?.hits ?? [];
    const after = (await fulltextSearch(searchDeps(), 'herons', {}, 50)).map((h) => h.nodeId);
    expect(after.length).toBe(9);
    expect(after).toEqual(last);
  });

  it('keeps the index of a larger corpus through a smaller bulk load', async () => {
    const seen: boolean[] = [];
    const service = observed(2, seen);
    await service.ingest(files('small', 2));
    expect(seen).toEqual([true, true]);
    expect(await indexExists()).toBe(true);
  });

  it('creates the index per document outside bulk loads', async () => {
    await deps.db.execute(sql.raw(`DROP INDEX IF EXISTS ${vectorIndexName(deps.providers.embedder)}`));
    const seen: boolean[] = [];
    const service = observed(10, seen);
    await service.ingest(files('single', 1));
    expect(seen).toEqual([true]);
  });
});
