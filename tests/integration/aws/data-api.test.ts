import type { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDataApi } from '#shared/db/data-api.ts';
import { type Database, queryRows, schema } from '#shared/db/index.ts';
import { createIngestService } from '#shared/pipeline/ingest.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { search } from '#shared/search/index.ts';
import { FAKE_CLUSTER_ARN, FAKE_SECRET_ARN, openDataApiTestDatabase } from '../../fakes/data-api-db.ts';
import { type FakeDataApi, startFakeDataApi } from '../../fakes/data-api-server.ts';
import { testDeps, utf8 } from '../pipeline/fixtures.ts';

const { documents } = schema;

describe('RDS Data API driver', () => {
  let database: Database & { api: FakeDataApi; pglite: PGlite };
  let deps: PipelineDeps & { dispose(): Promise<void> };

  beforeAll(async () => {
    database = await openDataApiTestDatabase();
    deps = await testDeps(database.db, { limits: { pipelineConcurrency: 1 } });
  });
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  it('applies the migrations over the Data API, extensions included', async () => {
    const rows = await queryRows<{ extname: string }>(
      database.db,
      sql`SELECT extname FROM pg_extension WHERE extname IN ('vector', 'pg_trgm') ORDER BY extname`,
    );
    expect(rows.map((r) => r.extname)).toEqual(['pg_trgm', 'vector']);
    expect(database.api.requests.some((r) => r.operation === 'BeginTransaction')).toBe(true);
    expect(database.api.requests.some((r) => r.sql?.includes('CREATE TABLE "documents"'))).toBe(true);
  });

  it('runs the ingestion pipeline and search through the Data API', async () => {
    const service = createIngestService(deps);
    const [outcome] = await service.ingest([
      {
        key: 'aws/herons.md',
        bytes: utf8('# Herons\n\n## Feeding\n\nHerons wade in shallow water to catch fish.\n'),
      },
    ]);
    expect(outcome?.error).toBeUndefined();
    expect(outcome).toMatchObject({ status: 'ready', version: 1 });
    const [doc] = await database.db.select().from(documents).where(eq(documents.key, 'aws/herons.md'));
    expect(doc?.status).toBe('ready');
    expect(doc?.createdAt).toBeInstanceOf(Date);
    const hits = await search(
      {
        db: database.db,
        embedder: deps.providers.embedder,
        search: deps.config.search,
      },
      { query: 'herons fish', kind: 'hybrid' },
    );
    expect(hits[0]?.content).toContain('catch fish');
  });

  it('rolls a failed transaction back', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(documents).values({ key: 'tx/rolled-back.md', filename: 'rolled-back.md' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const rows = await database.db.select().from(documents).where(eq(documents.key, 'tx/rolled-back.md'));
    expect(rows).toEqual([]);
  });

  it('reports a SQL error with its SQLSTATE, as the service does', async () => {
    const failure = await queryRows(database.db, sql`SELECT * FROM no_such_table`).catch((e: unknown) => e);
    const cause = (failure as { cause?: { name?: string; message?: string } }).cause;
    expect(cause?.name).toBe('DatabaseErrorException');
    expect(cause?.message).toMatch(/no_such_table.*SQLState: 42P01/s);
  });

  it('binds an untyped string as character varying, as Aurora does', async () => {
    const failure = await queryRows(
      database.db,
      sql`SELECT 1 FROM documents WHERE id = ${'00000000-0000-0000-0000-000000000000'}`,
    ).catch((e: unknown) => e);
    expect(String((failure as { cause?: unknown }).cause)).toMatch(/uuid = character varying/);
  });

  it('retries while a paused cluster resumes', async () => {
    const paused = await startFakeDataApi({ pglite: database.pglite, resumingResponses: 2 });
    const resumed = await openDataApi({
      resourceArn: FAKE_CLUSTER_ARN,
      secretArn: FAKE_SECRET_ARN,
      database: 'postgres',
      region: 'us-east-1',
      endpoint: paused.url,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      resumeDelaysMs: [1, 1, 1],
    });
    try {
      const rows = await queryRows<{ n: number }>(resumed.db, sql`SELECT 41 + 1 AS n`);
      expect(rows).toEqual([{ n: 42 }]);
      expect(paused.requests.filter((r) => r.operation === 'Execute')).toHaveLength(3);
    } finally {
      await resumed.close();
      await paused.close();
    }
  });
});
