import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, schema } from '#shared/db/index.ts';
import { removeObject } from '#shared/documents/remove-object.ts';
import type { PipelineInput } from '#shared/pipeline/contract.ts';
import { createIngestService } from '#shared/pipeline/ingest.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { lambdaIngestService } from '../../../functions/ask/lambda-ingest.ts';
import { routeObjectEvent } from '../../../functions/ingest/route-event.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { deployedDefinition, synthesizeApp } from '../../unit/infra/synth.ts';
import { testDeps, utf8 } from '../pipeline/fixtures.ts';
import { deployedMachine, inProcessSteps } from './deployed-machine.ts';
import { objectCreatedEvent, objectDeletedEvent } from './s3-events.ts';

const { documents, nodes } = schema;

const REPORT = `# Quarterly report

## Budget

The cloud migration budget is five million, spent on containers.

## Schedule

Migration starts in March and ends in October.
`;

describe('the deployed state machine and the ingest adapter', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  let machine: ReturnType<typeof deployedMachine>;
  const route = (event: unknown) =>
    routeObjectEvent(event, {
      start: async (input) => ({ executionArn: JSON.stringify(await machine.run(input)) }),
      remove: (removed) => removeObject(deps.db, deps.store, removed),
    });
  /** The ingested paragraphs of the live document for a key, in reading order. */
  const contentOf = async (key: string) => {
    const [doc] = await deps.db.select().from(documents).where(eq(documents.key, key));
    if (!doc) return undefined;
    const rows = await deps.db
      .select({ type: nodes.nodeType, title: nodes.title, content: nodes.content })
      .from(nodes)
      .where(eq(nodes.documentId, doc.id))
      .orderBy(asc(nodes.ordinal));
    return { status: doc.status, version: doc.currentVersion, deleted: doc.deletedAt !== null, rows };
  };

  beforeAll(async () => {
    const { pipeline } = synthesizeApp({ checks: false });
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db);
    machine = deployedMachine(deployedDefinition(pipeline), inProcessSteps(deps));
    await createIngestService(deps).ingest([{ key: 'local/report.md', bytes: utf8(REPORT) }]);
  });
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  it('ingests an object (Object Created, versioned bucket) exactly as a local upload does', async () => {
    await deps.store.put('aws/report.md', utf8(REPORT));
    const result = await route(
      objectCreatedEvent('aws/report.md', '0062E9A4B1C3D2E1F0', 'IYV3p45BT0ac8hjHg1houSdS1a'),
    );
    expect(result).toMatchObject({ action: 'ingest', input: { key: 'aws/report.md' } });
    const local = await contentOf('local/report.md');
    const deployed = await contentOf('aws/report.md');
    expect(local?.status).toBe('ready');
    expect(deployed).toEqual(local);
  });

  it('creates nothing for a redelivered event (unversioned bucket, same sequencer)', async () => {
    const result = await route(objectCreatedEvent('aws/report.md', '0062E9A4B1C3D2E1F0'));
    expect(JSON.parse((result as { executionArn: string }).executionArn)).toMatchObject({
      outcome: 'unchanged',
    });
    expect((await contentOf('aws/report.md'))?.version).toBe(1);
  });

  it('ingests a direct StartExecution input like a local upload', async () => {
    await deps.store.put('direct/report.md', utf8(REPORT));
    await route({ key: 'direct/report.md' });
    expect(await contentOf('direct/report.md')).toEqual(await contentOf('local/report.md'));
  });

  it('removes the document when its object is deleted (delete marker, versioned bucket)', async () => {
    await deps.store.delete('aws/report.md');
    const result = await route(objectDeletedEvent('aws/report.md', '0062E9A4B1C3D2E1FF', 'Jq0wLqUJ5tq3i2u7'));
    expect(result).toMatchObject({ action: 'remove', outcome: 'deleted' });
    expect((await contentOf('aws/report.md'))?.deleted).toBe(true);
  });

  it('removes the document when its object is deleted permanently (unversioned bucket)', async () => {
    await deps.store.delete('direct/report.md');
    const result = await route(objectDeletedEvent('direct/report.md', '0062E9A4B1C3D2E2AA'));
    expect(result).toMatchObject({ action: 'remove', outcome: 'deleted' });
  });

  it('records a failed version when the deployed definition catches a broken file', async () => {
    await deps.store.put('aws/binary.md', new Uint8Array([0, 1, 2, 3, 0, 0, 0, 255]));
    await expect(route(objectCreatedEvent('aws/binary.md', '0062E9A4B1C3D2E300'))).rejects.toThrow();
    expect((await contentOf('aws/binary.md'))?.status).toBe('failed');
  });

  it('uploads through the ask function as queued documents that their S3 events ingest; a reindex starts its own execution', async () => {
    const started: PipelineInput[] = [];
    const service = lambdaIngestService(deps, async (input) => {
      started.push(input);
      return {};
    });
    const [submitted] = await service.submit([{ key: 'uploads/report.md', bytes: utf8(REPORT) }]);
    expect(submitted).toMatchObject({ key: 'uploads/report.md', status: 'queued' });
    expect(started).toEqual([]);
    expect((await contentOf('uploads/report.md'))?.status).toBe('queued');
    await route(objectCreatedEvent('uploads/report.md', '0062E9A4B1C3D2E400'));
    expect(await contentOf('uploads/report.md')).toEqual(await contentOf('local/report.md'));
    await service.reindex(submitted?.documentId as string);
    expect(started).toEqual([{ key: 'uploads/report.md', documentId: submitted?.documentId, force: true }]);
  });
});
