import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { ask } from '#shared/qa/ask.ts';
import type { DocumentsDeps } from '#shared/qa/documents/flow.ts';
import { askRequestSchema, type QaMode } from '#shared/qa/request.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { doc, para, section, testEmbedder } from '../../helpers/corpus.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { indexWithRenditions } from './documents-corpus.ts';
import { collect, done } from './events.ts';

/**
 * Issue 18's questions without a model, in every mode: a multi-hop one (the lead of Atlas -> Dana
 * Whitfield -> Borealis and its result) among documents about other projects, and one whose
 * sources disagree (two different costs for Project Kestrel).
 */
const ATLAS = 'The project lead of Atlas is Dana Whitfield.';
const BOREALIS_LEAD = 'Dana Whitfield also led Borealis in 2022.';
const BOREALIS_RESULT = 'Borealis cut energy use by 18 percent.';
const KESTREL_A = 'The total cost of Project Kestrel was 2.4 million euros.';
const KESTREL_B = 'The total cost of Project Kestrel was 3.1 million euros.';

const CORPUS = [
  { filename: 'atlas.md', versions: [doc('Atlas', section('Team', para(ATLAS)))] },
  {
    filename: 'borealis.md',
    versions: [doc('Borealis', section('History', para(`${BOREALIS_LEAD} ${BOREALIS_RESULT}`)))],
  },
  {
    filename: 'orion.md',
    versions: [
      doc('Orion', section('Team', para('The project lead of Orion is Sam Park. Orion ran in 2021.'))),
    ],
  },
  {
    filename: 'vega.md',
    versions: [
      doc('Vega', section('Results', para('Vega reached its result early: the project met every goal.'))),
    ],
  },
  {
    filename: 'kestrel-budget.md',
    versions: [doc('Kestrel budget', section('Cost', para(`${KESTREL_A} The board approved it.`)))],
  },
  {
    filename: 'kestrel-review.md',
    versions: [doc('Kestrel review', section('Cost', para(`${KESTREL_B} Suppliers were paid late.`)))],
  },
].map((d) => ({ ...d, versions: d.versions }));

const MODES: QaMode[] = ['auto', 'agent', 'two-stage', 'documents'];

describe.each(DRIVERS)('offline multi-hop and contradictions in every mode (%s)', (driver) => {
  let database: Database;
  let embedder: Embedder;
  let dir: string;
  let store: LocalBlobStore;
  const config = loadConfig({ env: {} });

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    embedder = testEmbedder();
    dir = mkdtempSync(join(tmpdir(), 'dropqa-hops-'));
    store = new LocalBlobStore(dir);
    await indexWithRenditions(database.db, store, CORPUS);
  });
  afterAll(async () => {
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Two documents read whole: the hop's document has to be found, not just read with the rest.
  const deps = (): DocumentsDeps => ({
    db: database.db,
    access: ALL_COLLECTIONS,
    embedder,
    search: config.search,
    store,
    documents: { maxDocuments: 2 },
    providers: { embedder, label: 'offline (extractive)' },
  });
  const answer = async (question: string, mode: QaMode) =>
    done(await collect(ask(deps(), askRequestSchema.parse({ question, mode })))).answer;

  it.each(MODES)('answers the Atlas/Borealis question with both hops in %s mode', async (mode) => {
    const text = await answer(
      'Which other project did the lead of Atlas run, and what was its result?',
      mode,
    );
    expect(text).toContain('Dana Whitfield');
    expect(text).toContain('Borealis');
    expect(text).toContain('18 percent');
  });

  it.each([...MODES, 'standard' as const])(
    'says the sources disagree and quotes both in %s mode',
    async (mode) => {
      const text = await answer('How much did Project Kestrel cost in total?', mode);
      expect(text).toMatch(/sources disagree|documents disagree/);
      expect(text).toContain(KESTREL_A);
      expect(text).toContain(KESTREL_B);
    },
  );
});
