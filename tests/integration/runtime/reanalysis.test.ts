import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, parseConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import { ANALYZER_VERSION } from '#shared/index/analyze.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { fulltextSearch } from '#shared/search/fulltext.ts';
import { warmSearchIndex } from '#shared/search/memory-sync.ts';

const POLICY =
  '# 稀土政策\n\n## 出口\n\n稀土出口配额由商务部每年公布。\n\nRare earth export quotas are published yearly.\n';
const TRAVEL = '# Travel\n\nTrain tickets are refunded within 30 days.\n';

/**
 * A data folder indexed by an older analysis (here Postgres' `simple` parser, which leaves a CJK
 * run whole and does not stem) is re-analysed when the runtime opens it, without re-ingesting.
 */
describe('re-analysis of a database indexed by an older analysis', () => {
  let root: string;
  let config: Config;
  let rt: Runtime;
  const vectors = async () =>
    queryRows<{ id: string; tsv: string; tokens: number; grams: number }>(
      rt.db,
      sql`SELECT n.id, n.search_vector::text AS tsv, n.token_count AS tokens, n.gram_count AS grams FROM nodes n
          JOIN documents d ON d.id = n.document_id AND d.current_version = n.version ORDER BY n.id`,
    );
  const analyzerVersions = async () =>
    (
      await queryRows<{ v: number | null }>(rt.db, sql`SELECT analyzer_version AS v FROM document_versions`)
    ).map((r) => r.v);
  let fresh: Awaited<ReturnType<typeof vectors>>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dropqa-reanalysis-'));
    config = parseConfig({ dataDir: join(root, 'data'), providers: { ocr: { kind: 'none' } } });
    rt = await openRuntime(config);
    const outcomes = await rt.ingest.ingest([
      { key: 'uploads/policy.md', bytes: new TextEncoder().encode(POLICY) },
      { key: 'uploads/travel.md', bytes: new TextEncoder().encode(TRAVEL) },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ready', 'ready']);
    fresh = await vectors();
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('records the analysis a version was indexed with, so a fresh database has nothing to redo', async () => {
    expect(await analyzerVersions()).toEqual([ANALYZER_VERSION, ANALYZER_VERSION]);
    expect(await rt.reanalysis?.done).toEqual({ versions: 0, nodes: 0, total: 0 });
  });

  it('rebuilds the search vectors of the current versions on open, and search finds by the new terms', async () => {
    // What an older release left: other terms and lengths, no analysis recorded.
    await rt.db.execute(sql`UPDATE nodes SET search_vector = to_tsvector('simple', coalesce(content, title, '')),
      token_count = 1, gram_count = 0`);
    await rt.db.execute(sql`UPDATE document_versions SET analyzer_version = NULL`);
    await rt.close();
    rt = await openRuntime(config);
    const done = await rt.reanalysis?.done;
    expect(done).toMatchObject({ versions: 2, total: 2, nodes: fresh.length });
    expect(await vectors()).toEqual(fresh);
    expect(await analyzerVersions()).toEqual([ANALYZER_VERSION, ANALYZER_VERSION]);
    // Loaded first, so that the memory index, not SQL while it loads, ranks the default scope.
    await warmSearchIndex(rt.db);
    for (const memoryIndex of [true, false]) {
      const deps = { ...rt.qa, search: { ...rt.qa.search, bm25: { ...rt.qa.search.bm25, memoryIndex } } };
      const hits = await fulltextSearch(deps, '出口配额', {}, 3);
      expect(hits[0]?.content, `memory index ${memoryIndex}`).toContain('稀土出口配额');
    }
  });
});
