import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.ts';
import { routeByRules, routeCandidates } from '#shared/qa/agent/route.ts';
import { doc, indexCorpus, markDeleted, para, setCurrentVersion } from '../../helpers/corpus.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';

/** The document a question is routed to by rules, by file name, or 'corpus'. */
async function routedTo(database: Database, question: string, documentIds?: string[]): Promise<string> {
  const filters = documentIds ? { documentIds } : {};
  const route = routeByRules(question, await routeCandidates(database.db, filters), filters);
  return route.documentName ?? route.scope;
}

describe.each(DRIVERS)('route candidates kept between questions (%s)', (driver) => {
  let database: Database;
  let ids: Map<string, string>;

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    const docs = await indexCorpus(database.db, [
      { filename: 'harbor-plan.md', versions: [doc('Harbor Expansion Plan', para('Quays and cranes.'))] },
      {
        filename: 'budget.md',
        versions: [
          doc('Fiscal Outlook 2024', para('Costs.')),
          doc('Annual Spending Review', para('Costs again.')),
        ],
        current: 1,
      },
    ]);
    ids = new Map([...docs].map(([name, d]) => [name, d.id]));
  });
  afterAll(async () => database?.close());

  it('finds documents by file name and by the title of their current version', async () => {
    expect(await routedTo(database, 'What does harbor-plan say about cranes?')).toBe('harbor-plan.md');
    expect(await routedTo(database, 'What is in the Fiscal Outlook 2024?')).toBe('budget.md');
    expect(await routedTo(database, 'What does the annual spending review say?')).toBe('corpus');
  });

  it('reads the names again when a document appears, is renamed, changes version or goes', async () => {
    await routedTo(database, 'warm the names');
    const added = await indexCorpus(database.db, [
      { filename: 'tide-tables.md', versions: [doc('Tide Tables', para('High water at noon.'))] },
    ]);
    expect(await routedTo(database, 'When is high water in the tide tables?')).toBe('tide-tables.md');

    await database.db.execute(
      sql`UPDATE documents SET filename = 'port-plan.md' WHERE id = ${ids.get('harbor-plan.md')}::uuid`,
    );
    expect(await routedTo(database, 'What does port-plan say?')).toBe('port-plan.md');

    await setCurrentVersion(database.db, ids.get('budget.md') ?? '', 2);
    expect(await routedTo(database, 'What does the annual spending review say?')).toBe('budget.md');
    expect(await routedTo(database, 'What is in the Fiscal Outlook 2024?')).toBe('corpus');

    await markDeleted(database.db, added.get('tide-tables.md')?.id ?? '');
    expect(await routedTo(database, 'When is high water in the tide tables?')).toBe('corpus');
  });

  it('takes the title recorded with the current version, the document node only where none is', async () => {
    const plan = ids.get('harbor-plan.md') ?? '';
    // The parse step records the title before the version becomes current; here the rename is what
    // tells the router its names changed.
    await database.db.execute(
      sql`UPDATE document_versions SET title = 'Harbour Masterplan' WHERE document_id = ${plan}::uuid`,
    );
    await database.db.execute(sql`UPDATE documents SET filename = 'harbour.md' WHERE id = ${plan}::uuid`);
    expect(await routedTo(database, 'What is in the Harbour Masterplan?')).toBe('harbour.md');
    expect(await routedTo(database, 'What is in the Harbor Expansion Plan?')).toBe('corpus');
    // budget.md's versions have no recorded title: its current version's document node names it.
    expect(await routedTo(database, 'What does the annual spending review say?')).toBe('budget.md');
  });

  it('limits the candidates to the request’s documents', async () => {
    const budget = ids.get('budget.md') ?? '';
    const candidates = await routeCandidates(database.db, { documentIds: [budget] });
    expect(candidates.map((c) => c.id)).toEqual([budget]);
    expect(await routedTo(database, 'What does harbour say?', [budget])).toBe('budget.md');
  });
});
