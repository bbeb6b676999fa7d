import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, schema } from '#shared/db/index.ts';
import { createIngestService } from '#shared/pipeline/ingest.ts';
import { createPipelineRunner } from '#shared/pipeline/runner.ts';
import { activate } from '#shared/pipeline/steps/activate.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { testDeps, utf8 } from './fixtures.ts';

const { documents, documentVersions } = schema;

describe('createPipelineRunner', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db, { limits: { pipelineConcurrency: 3 } });
  });
  afterAll(async () => {
    await deps.dispose();
    await database.close();
  });

  it('creates one document and one version when the same object event arrives three times at once', async () => {
    await deps.store.put('events/dup.md', utf8('# Duplicate\n\nDelivered more than once.\n'));
    const runner = createPipelineRunner(deps);
    const outcomes = await Promise.all([1, 2, 3].map(() => runner.run({ key: 'events/dup.md' })));
    expect(outcomes.map((o) => o.status).sort()).toEqual(['ready', 'unchanged', 'unchanged']);
    expect(new Set(outcomes.map((o) => o.documentId)).size).toBe(1);
    const docs = await deps.db.select().from(documents).where(eq(documents.key, 'events/dup.md'));
    expect(docs).toHaveLength(1);
    const versions = await deps.db
      .select()
      .from(documentVersions)
      .where(eq(documentVersions.documentId, docs[0]?.id ?? ''));
    expect(versions.map((v) => [v.version, v.status])).toEqual([[1, 'ready']]);
  });

  it('fails without creating a document when the object does not exist', async () => {
    const outcome = await createPipelineRunner(deps).run({ key: 'events/gone.md' });
    expect(outcome).toEqual({
      status: 'failed',
      error: 'gone.md: the object events/gone.md does not exist',
    });
    expect(await deps.db.select().from(documents).where(eq(documents.key, 'events/gone.md'))).toEqual([]);
  });

  it('reprocesses the same bytes when forced and keeps no new version when the result is the same', async () => {
    await deps.store.put('events/force.md', utf8('# Force\n\nSame bytes.\n'));
    const runner = createPipelineRunner(deps);
    const first = await runner.run({ key: 'events/force.md' });
    const steps: string[] = [];
    const second = await runner.run({ key: 'events/force.md', force: true }, (e) => {
      if (e.type === 'step-started') steps.push(e.step);
    });
    expect(steps).toContain('Parse');
    expect(second).toMatchObject({ status: 'unchanged', version: 1, documentId: first.documentId });
    const versions = await deps.db
      .select({ version: documentVersions.version })
      .from(documentVersions)
      .where(eq(documentVersions.documentId, first.documentId ?? ''));
    expect(versions).toEqual([{ version: 1 }]);
  });

  it('keeps the newer current version when an older version activates late', async () => {
    const service = createIngestService(deps);
    const [v1] = await service.ingest([{ key: 'late/a.md', bytes: utf8('# V1\n\nOne.\n') }]);
    await service.ingest([{ key: 'late/a.md', bytes: utf8('# V2\n\nTwo.\n') }]);
    const id = v1?.documentId ?? '';
    await activate({ documentId: id, version: 1 }, deps);
    const [doc] = await deps.db.select().from(documents).where(eq(documents.id, id));
    expect(doc).toMatchObject({ currentVersion: 2, status: 'ready' });
  });

  it('records a failure the definition cannot catch and still answers', async () => {
    const runner = createPipelineRunner(deps, {
      // Parse returning no image list breaks the Map's ItemsPath: a States.Runtime error, not catchable.
      steps: { Parse: async () => ({ nothing: true }) },
    });
    await deps.store.put('events/runtime.md', utf8('# Runtime\n\nText.\n'));
    const outcome = await runner.run({ key: 'events/runtime.md' });
    expect(outcome).toMatchObject({ status: 'failed', version: 1 });
    const versions = await deps.db
      .select()
      .from(documentVersions)
      .where(eq(documentVersions.documentId, outcome.documentId ?? ''))
      .orderBy(asc(documentVersions.version));
    expect(versions[0]).toMatchObject({ status: 'failed', error: outcome.error });
    expect(outcome.error).toMatch(/\$.parse.images/);
  });

  it('answers invalid input with a failed outcome instead of throwing', async () => {
    const outcome = await createPipelineRunner(deps).run({ key: '' });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/invalid pipeline input/);
  });
});
