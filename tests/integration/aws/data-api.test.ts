import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { openDataApi } from '#shared/db/data-api.ts';
import { DATA_API_REQUEST_BYTES } from '#shared/db/data-api-limits.ts';
import { type Database, queryRows, schema } from '#shared/db/index.ts';
import type { NodeType } from '#shared/db/schema.ts';
import { diffVersions } from '#shared/diff/index.ts';
import { listVersions } from '#shared/documents/index.ts';
import { loadSummaryTree } from '#shared/enrich/summary-tree.ts';
import { embedVersion } from '#shared/index/embed-version.ts';
import { leafIndexParts } from '#shared/index/flatten.ts';
import type { NodeRow } from '#shared/index/node-row.ts';
import { reanalyseVersion } from '#shared/index/reanalyse.ts';
import { buildTsvector } from '#shared/index/tsvector.ts';
import { writeNodes } from '#shared/index/write-nodes.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import { createIngestService } from '#shared/pipeline/ingest.ts';
import { createPipelineRunner } from '#shared/pipeline/runner.ts';
import { toStepError } from '#shared/pipeline/step-error.ts';
import { STEPS } from '#shared/pipeline/step-table.ts';
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
        access: ALL_COLLECTIONS,
        embedder: deps.providers.embedder,
        search: deps.config.search,
      },
      { query: 'herons fish', kind: 'hybrid' },
    );
    expect(hits[0]?.content).toContain('catch fish');
  });

  it('diffs two versions and stores the change summary through the Data API', async () => {
    const service = createIngestService(deps);
    const doc = (days: number) =>
      utf8(`# Returns\n\n## Window\n\nReturns are accepted within ${days} days.\n`);
    const [first] = await service.ingest([{ key: 'aws/returns.md', bytes: doc(14) }]);
    const [second] = await service.ingest([{ key: 'aws/returns.md', bytes: doc(30) }]);
    expect(second).toMatchObject({ status: 'ready', version: 2 });
    const diff = await diffVersions(database.db, ALL_COLLECTIONS, first?.documentId ?? '');
    expect(diff.sections.map((s) => [s.status, s.path.join(' > ')])).toEqual([
      ['modified', 'Returns > Window'],
    ]);
    expect(diff.sections[0]?.leaves[0]?.words?.filter((w) => w.op !== 'equal')).toEqual([
      { op: 'delete', text: '14' },
      { op: 'insert', text: '30' },
    ]);
    const versions = await listVersions(database.db, ALL_COLLECTIONS, first?.documentId ?? '');
    expect(versions[0]?.changeSummary).toBe('1 paragraph changed. Window: "14" → "30".');
    expect(versions[1]?.changeSummary).toBeNull();
  });

  it('writes, reads and embeds a version past the 4 MiB request and 1 MiB result limits', async () => {
    // 400 paragraphs of ~3 KB: ~1.2 MB of text (one result would pass 1 MiB; 500 rows a statement
    // with their index text would pass 4 MiB) and 400 vectors of ~11 KB at 1,024 dimensions.
    const [doc] = await database.db
      .insert(documents)
      .values({ key: 'aws/long.md', filename: 'long.md' })
      .returning({ id: documents.id });
    const ref = { documentId: doc?.id as string, version: 1 };
    const row = (ordinal: number, nodeType: NodeType, content: string | null): NodeRow => ({
      id: randomUUID(),
      ...ref,
      parentId: ordinal === 0 ? null : rootId,
      nodeType,
      depth: ordinal === 0 ? 0 : 1,
      position: Math.max(0, ordinal - 1),
      ordinal,
      title: ordinal === 0 ? 'Long report' : null,
      content,
      summary: null,
      category: null,
      indexText: content ?? 'Long report',
      searchVector: "'heron':1",
      tokenCount: 1,
      gramCount: 0,
      metadata: {},
    });
    const rootId = randomUUID();
    const rows = [
      { ...row(0, 'document', null), id: rootId },
      ...Array.from({ length: 400 }, (_, i) =>
        row(i + 1, 'paragraph', `Paragraph ${i}. ${'Wetland water levels vary by season. '.repeat(80)}`),
      ),
    ];
    const from = database.api.requests.length;
    await writeNodes(database.db, rows);
    const { root: tree } = await loadSummaryTree(database.db, ref);
    expect(tree.children.map((c) => c.content)).toEqual(rows.slice(1).map((r) => r.content));
    const { embedded } = await embedVersion(database.db, new HashingEmbedder({ dimensions: 1024 }), ref, 64);
    expect(embedded).toBe(400);
    const sent = database.api.requests.slice(from).map((r) => r.bytes);
    expect(Math.max(...sent)).toBeGreaterThan(DATA_API_REQUEST_BYTES / 2);
    expect(Math.max(...sent)).toBeLessThanOrEqual(DATA_API_REQUEST_BYTES);
    // Re-analysis (an analyzer upgrade) reads the version paged and writes it byte-batched.
    const before = database.api.requests.length;
    expect(await reanalyseVersion(database.db, ref)).toBe(401);
    const [first] = await queryRows<{ tsv: string; tokens: number }>(
      database.db,
      sql`SELECT search_vector::text AS tsv, token_count AS tokens FROM nodes WHERE id = ${rows[1]?.id}::uuid`,
    );
    expect(first?.tsv).toContain("'wetland':");
    expect(first?.tsv).not.toContain("'heron'");
    expect(first?.tokens).toBe(
      buildTsvector(leafIndexParts(['Long report'], rows[1]?.content ?? '')).tokenCount,
    );
    const resent = database.api.requests.slice(before).map((r) => r.bytes);
    expect(Math.max(...resent)).toBeLessThanOrEqual(DATA_API_REQUEST_BYTES);
  });

  it('refuses a request above 4 MiB and a result above 1 MiB, as the service does', async () => {
    const big = 'x'.repeat(DATA_API_REQUEST_BYTES);
    const request = await queryRows(database.db, sql`SELECT length(${big}::text) AS n`).catch(
      (e: unknown) => e,
    );
    expect(String((request as { cause?: unknown }).cause)).toMatch(/exceeds the 4 MiB limit/);
    const result = await queryRows(database.db, sql`SELECT repeat('y', 1100000) AS s`).catch(
      (e: unknown) => e,
    );
    expect(String((result as { cause?: unknown }).cause)).toMatch(/response size limit/);
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

  it('makes a deadlock or a serialization failure (SQLSTATE only in the message) a TransientError', async () => {
    const raise = (code: string) =>
      queryRows(
        database.db,
        sql.raw(`DO $$ BEGIN RAISE EXCEPTION 'could not serialize access' USING ERRCODE = '${code}'; END $$`),
      ).catch((e: unknown) => e);
    for (const code of ['40P01', '40001']) {
      const failure = toStepError(await raise(code));
      expect(failure).toMatchObject({
        name: 'TransientError',
        message: 'database error: could not serialize access',
      });
    }
    expect(toStepError(await raise('22001')).name).toBe('DatabaseError');
  });

  it('retries a step whose statement deadlocked over the Data API', async () => {
    let attempts = 0;
    const runner = createPipelineRunner(deps, {
      retryDelayMs: 1,
      steps: {
        Topics: async (input, stepDeps) => {
          if (++attempts === 1)
            await queryRows(
              stepDeps.db,
              sql`DO $$ BEGIN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END $$`,
            );
          return STEPS.Topics(input, stepDeps);
        },
      },
    });
    await deps.store.put('aws/deadlock.md', utf8('# Deadlock\n\nTwo writers wait for each other.\n'));
    const outcome = await runner.run({ key: 'aws/deadlock.md' });
    expect(outcome).toMatchObject({ status: 'ready', version: 1 });
    expect(attempts).toBe(2);
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
