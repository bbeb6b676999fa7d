import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import { parsePptx } from '#shared/parse/pptx/index.ts';
import { ask } from '#shared/qa/ask.ts';
import type { DocumentsDeps } from '#shared/qa/documents/flow.ts';
import { askRequestSchema } from '#shared/qa/request.ts';
import { fulltextSearch } from '#shared/search/index.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { testEmbedder } from '../../helpers/corpus.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { indexWithRenditions } from './documents-corpus.ts';
import { collect, done } from './events.ts';

/** A deck whose only content is a chart: its values come from the chart part's cached data. */
const DECK = new URL('../../fixtures/office-kinds/chart-only.pptx', import.meta.url);

describe('a chart-only deck', () => {
  let database: Database;
  let dir: string;
  const embedder = testEmbedder();
  const config = loadConfig({ env: {} });

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    dir = mkdtempSync(join(tmpdir(), 'dropqa-chart-'));
    const parsed = await parsePptx({ bytes: new Uint8Array(readFileSync(DECK)), filename: 'revenue.pptx' });
    await indexWithRenditions(database.db, new LocalBlobStore(dir), [
      { filename: 'revenue.pptx', versions: [parsed] },
    ]);
  });
  afterAll(async () => {
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds a chart value by search', async () => {
    const hits = await fulltextSearch(
      { db: database.db, access: ALL_COLLECTIONS, embedder, search: config.search },
      '611',
      {},
      5,
    );
    expect(hits[0]?.content).toContain('| Q3 | 611 | 455 |');
  });

  it('quotes a chart value in an offline answer', async () => {
    const deps: DocumentsDeps = {
      db: database.db,
      access: ALL_COLLECTIONS,
      embedder,
      search: config.search,
      store: new LocalBlobStore(dir),
      providers: { embedder, label: 'offline (extractive)' },
    };
    const request = askRequestSchema.parse({ question: 'What was the North revenue in Q3?', mode: 'auto' });
    const { answer } = done(await collect(ask(deps, request)));
    expect(answer).toContain('611');
  });
});
