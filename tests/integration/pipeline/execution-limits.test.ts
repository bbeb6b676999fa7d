import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '#shared/db/index.ts';
import type { PipelineEvent } from '#shared/pipeline/index.ts';
import { createPipelineRunner } from '#shared/pipeline/runner.ts';
import { STEPS } from '#shared/pipeline/step-table.ts';
import { IMAGES_PER_INVOCATION } from '#shared/pipeline/steps/describe-image.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { promptText, scriptedChat } from '../../helpers/scripted-chat.ts';
import { pngBytes, testDeps, utf8 } from './fixtures.ts';

/**
 * Images of the many-images document, and the limits its run is held to here: an inline Map of one
 * iteration per image (~7 history events each) and a state listing the image ids (~39 bytes each)
 * would pass both, as ~3,600 images would pass Step Functions' own.
 */
const IMAGES = 1000;
const LOWERED = { historyEvents: 2000, stateBytes: 16 * 1024 };

describe("the local runner holds the definition to Step Functions' limits", () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db, { limits: { pipelineConcurrency: 1 } });
  });
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  it(`ingests a document of ${IMAGES} images: the state holds a cursor, the history stays bounded`, async () => {
    const png = pngBytes(2, 2);
    const lines = ['# Atlas', ''];
    for (let i = 0; i < IMAGES; i++) {
      const name = `plate-${String(i).padStart(4, '0')}.png`;
      await deps.store.put(`atlas/${name}`, png);
      lines.push(`![Plate ${i}](${name})`, '');
    }
    await deps.store.put('atlas/atlas.md', utf8(lines.join('\n')));
    const events: PipelineEvent[] = [];
    const runner = createPipelineRunner(deps, { executionLimits: LOWERED });
    const outcome = await runner.run({ key: 'atlas/atlas.md' }, (e) => events.push(e));
    expect(outcome.error).toBeUndefined();
    expect(outcome).toMatchObject({ status: 'ready', version: 1 });
    const invocations = events.filter((e) => e.type === 'step-started' && e.step === 'DescribeImage');
    expect(invocations).toHaveLength(Math.ceil(IMAGES / IMAGES_PER_INVOCATION));
    const [read] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM nodes n JOIN documents d ON d.id = n.document_id
          WHERE d.key = 'atlas/atlas.md' AND n.node_type = 'image' AND n.metadata ? 'imageRead'`,
    );
    expect(read?.n).toBe(IMAGES);
  }, 120_000);

  it('fails a run whose state passes 256 KB, with the reason recorded on the version', async () => {
    await deps.store.put('limits/big.md', utf8('# Big\n\nA step returns too much.\n'));
    const runner = createPipelineRunner(deps, {
      steps: {
        Parse: async (input, stepDeps) => ({
          ...((await STEPS.Parse(input, stepDeps)) as object),
          warnings: Array.from({ length: 3000 }, (_, i) => `warning ${i}: ${'x'.repeat(100)}`),
        }),
      },
    });
    const outcome = await runner.run({ key: 'limits/big.md' });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/Parse's output of 3\d\d\.\d KB passes the 256 KB Step Functions allows/);
    const [version] = await queryRows<{ status: string; error: string }>(
      database.db,
      sql`SELECT v.status, v.error FROM document_versions v JOIN documents d ON d.id = v.document_id
          WHERE d.key = 'limits/big.md'`,
    );
    expect(version).toMatchObject({ status: 'failed', error: expect.stringMatching(/256 KB/) });
  });

  it('fails a run whose history passes 25,000 events', async () => {
    await deps.store.put('limits/loop.md', utf8('# Loop\n\n![a](a.png)\n'));
    await deps.store.put('limits/a.png', pngBytes(2, 2));
    const runner = createPipelineRunner(deps, {
      // A step that never finishes its images: each turn of the loop adds ~7 history events.
      steps: { DescribeImage: async () => ({ left: 1, after: 0 }) },
    });
    const outcome = await runner.run({ key: 'limits/loop.md' });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/passed 25,000 history events/);
  }, 120_000);
});

describe('Summarize over several invocations', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db, { providers: { chat: { maxConcurrency: 2 } } });
  });
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  it('goes on from the summaries written when its budget is spent, calling the model once per section', async () => {
    const sections = Array.from(
      { length: 9 },
      (_, i) => `## Part ${i + 1}\n\nPart ${i + 1} covers topic ${i + 1}.\n`,
    );
    await deps.store.put('long/report.md', utf8(`# Report\n\n${sections.join('\n')}`));
    const chat = scriptedChat((request) => ({
      summary: `Summary ${promptText(request).length}.`,
      contexts: [],
      topics: [],
    }));
    const events: PipelineEvent[] = [];
    const runner = createPipelineRunner({ ...deps, providers: { ...deps.providers, chat }, stepBudgetMs: 0 });
    const outcome = await runner.run({ key: 'long/report.md' }, (e) => events.push(e));
    expect(outcome).toMatchObject({ status: 'ready', version: 1 });
    // Two calls (the concurrency) per invocation once the budget is spent: 9 sections, then the document.
    const invocations = events.filter((e) => e.type === 'step-started' && e.step === 'Summarize');
    expect(invocations.length).toBeGreaterThanOrEqual(5);
    const perSection = new Map<string, number>();
    for (const call of chat.calls) {
      const text = promptText(call.request);
      const only = text.match(/Part (\d) covers/g);
      if (only?.length === 1) perSection.set(only[0], (perSection.get(only[0]) ?? 0) + 1);
    }
    expect([...perSection.values()]).toEqual(Array(9).fill(1));
    const [root] = await queryRows<{ summary: string | null }>(
      database.db,
      sql`SELECT n.summary FROM nodes n JOIN documents d ON d.id = n.document_id
          WHERE d.key = 'long/report.md' AND n.node_type = 'document'`,
    );
    expect(root?.summary).toMatch(/^Summary \d+\.$/);
  });
});
