import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, schema } from '#shared/db/index.ts';
import { createIngestService } from '#shared/pipeline/ingest.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { testDeps, utf8 } from './fixtures.ts';

const { documents } = schema;

// The pipeline's SQL (status derivation, activation, bulk index) on both drivers, end to end.
describe.each(DRIVERS)('ingest pipeline on %s', (driver) => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    // The test helper's pglite-socket server accepts one connection (its default maxConnections),
    // so executions must not overlap on node-postgres here.
    deps = await testDeps(database.db, { limits: { pipelineConcurrency: 1 } });
  });
  afterAll(async () => {
    await deps.dispose();
    await database.close();
  });

  it('ingests, skips unchanged bytes, fails a broken update and keeps the version before it', async () => {
    const ok = createIngestService(deps, { bulkMinFiles: 2 });
    const [v1, empty] = await ok.ingest([
      { key: 'd/a.md', bytes: utf8('# A\n\nFirst.\n') },
      { key: 'd/empty.md', bytes: new Uint8Array(0) },
    ]);
    expect(v1?.error).toBeUndefined();
    expect(v1).toMatchObject({ status: 'ready', version: 1 });
    expect(empty).toMatchObject({ status: 'failed', error: 'empty.md: the file is empty' });
    const [same] = await ok.ingest([{ key: 'd/a.md', bytes: utf8('# A\n\nFirst.\n') }]);
    expect(same).toMatchObject({ status: 'unchanged', version: 1 });

    const broken = createIngestService(deps, {
      steps: {
        Topics: async () => {
          throw new Error('topics broke');
        },
      },
    });
    const [v2] = await broken.ingest([{ key: 'd/a.md', bytes: utf8('# A\n\nSecond.\n') }]);
    expect(v2).toMatchObject({ status: 'failed', version: 2, error: 'topics broke' });
    const [doc] = await deps.db
      .select()
      .from(documents)
      .where(eq(documents.id, v1?.documentId ?? ''));
    expect(doc).toMatchObject({
      currentVersion: 1,
      status: 'ready',
      statusDetail: 'version 2 failed: topics broke',
    });
  });
});
