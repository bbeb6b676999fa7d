import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, schema } from '#shared/db/index.ts';
import { createIngestService, type IngestService } from '#shared/pipeline/ingest.ts';
import { parse } from '#shared/pipeline/steps/parse.ts';
import type { PipelineDeps, PipelineEvent } from '#shared/pipeline/types.ts';
import { stageStream } from '#shared/storage/staging.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { pngBytes, testDeps, utf8 } from './fixtures.ts';

const { documents, documentVersions, nodes, embeddings, images } = schema;

const GUIDE = `---
title: Field guide
tags: [birds]
---
# Field guide

Birds are warm-blooded vertebrates with feathers and beaks.

## Identification

Look at the beak shape, the plumage and the song.

![A heron in the reeds](img/heron.png)

## Habitat

| Bird | Habitat |
| --- | --- |
| Heron | Wetlands |
`;

describe('ingest pipeline', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  let service: IngestService;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db);
    service = createIngestService(deps, { retryDelayMs: 1 });
  });
  afterAll(async () => {
    await service.idle();
    await deps.dispose();
    await database.close();
  });

  async function versionsOf(documentId: string) {
    return deps.db
      .select()
      .from(documentVersions)
      .where(eq(documentVersions.documentId, documentId))
      .orderBy(asc(documentVersions.version));
  }

  async function documentRow(documentId: string) {
    const [doc] = await deps.db.select().from(documents).where(eq(documents.id, documentId));
    if (!doc) throw new Error(`no document ${documentId}`);
    return doc;
  }

  it('ingests a Markdown file end to end: version 1 ready with nodes, rendition, image and embeddings', async () => {
    await deps.store.put('notes/img/heron.png', pngBytes(12, 8));
    const [outcome] = await service.ingest([{ key: 'notes/guide.md', bytes: utf8(GUIDE) }]);
    expect(outcome).toMatchObject({ key: 'notes/guide.md', status: 'ready', version: 1 });
    const id = outcome?.documentId ?? '';

    const doc = await documentRow(id);
    expect(doc).toMatchObject({ currentVersion: 1, status: 'ready', statusDetail: null, fileType: 'md' });
    const [version] = await versionsOf(id);
    expect(version).toMatchObject({
      status: 'ready',
      error: null,
      markdownKey: `documents/${id}/v1/content.md`,
      // Recorded at parse time for the question router (the front matter's title).
      title: 'Field guide',
    });
    expect(version?.completedAt).toBeInstanceOf(Date);
    expect(version?.stats).toMatchObject({ sections: 3, images: 1, tables: 1 });
    expect(version?.stats.embeddings).toBeGreaterThan(0);
    expect(version?.stats.durationMs).toBeGreaterThanOrEqual(0);

    const [nodeCount] = await deps.db
      .select({ n: count() })
      .from(nodes)
      .where(and(eq(nodes.documentId, id), eq(nodes.version, 1)));
    expect(nodeCount?.n).toBeGreaterThanOrEqual(7);

    const rendition = new TextDecoder().decode(await deps.store.get(`documents/${id}/v1/content.md`));
    expect(rendition).toContain('Identification');
    expect(rendition).toContain('](img_001.png)');
    const [image] = await deps.db.select().from(images).innerJoin(nodes, eq(images.nodeId, nodes.id));
    expect(image?.images).toMatchObject({
      objectKey: `documents/${id}/v1/img_001.png`,
      mime: 'image/png',
      width: 12,
      height: 8,
    });
    expect(await deps.store.head(`documents/${id}/v1/img_001.png`)).toMatchObject({
      size: pngBytes(12, 8).length,
    });

    const [vectors] = await deps.db
      .select({ n: count() })
      .from(embeddings)
      .innerJoin(nodes, eq(embeddings.nodeId, nodes.id))
      .where(eq(nodes.documentId, id));
    expect(vectors?.n).toBe(version?.stats.embeddings);
  });

  it('reports the same bytes again as unchanged without creating a version', async () => {
    const file = { key: 'same/a.md', bytes: utf8('# Same\n\nIdentical content twice.\n') };
    const [first] = await service.ingest([file]);
    const [second] = await service.ingest([file]);
    expect(second).toMatchObject({ status: 'unchanged', version: 1, documentId: first?.documentId });
    expect(await versionsOf(first?.documentId ?? '')).toHaveLength(1);
    expect(await documentRow(first?.documentId ?? '')).toMatchObject({ status: 'ready', currentVersion: 1 });
  });

  it('ingests a staged file like its bytes: same object, same hash, and unchanged against those bytes', async () => {
    const text = '# Staged\n\nWritten to disk as it arrived, never held whole.\n';
    const dir = await mkdtemp(join(tmpdir(), 'dropqa-staged-'));
    try {
      const staged = await stageStream(dir, Readable.from([Buffer.from(text)]));
      const [first] = await service.ingest([{ key: 'staged/a.md', staged, contentType: 'text/markdown' }]);
      expect(first).toMatchObject({ status: 'ready', version: 1 });
      expect(new TextDecoder().decode(await deps.store.get('staged/a.md'))).toBe(text);
      expect((await versionsOf(first?.documentId ?? ''))[0]?.fileHash).toBe(staged.hash);
      const [again] = await service.submit([{ key: 'staged/a.md', bytes: utf8(text) }]);
      expect(again).toMatchObject({ status: 'unchanged', version: 1, documentId: first?.documentId });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails a file whose key the bucket refuses on its own and ingests the others of the batch', async () => {
    await service.ingest([{ key: 'clash/a.md', bytes: utf8('# A\n\nA file where a folder is wanted.\n') }]);
    const outcomes = await service.ingest([
      { key: 'clash/a.md/inner.md', bytes: utf8('# Inner\n\nCannot live under a file.\n') },
      { key: 'clash/b.md', bytes: utf8('# B\n\nSent with it.\n') },
    ]);
    expect(outcomes.find((o) => o.key === 'clash/a.md/inner.md')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/conflicts with an existing prefix or object/),
    });
    expect(outcomes.find((o) => o.key === 'clash/b.md')).toMatchObject({ status: 'ready', version: 1 });
    const keys: string[] = [];
    for await (const blob of deps.store.list('clash/')) keys.push(blob.key);
    expect(keys.sort()).toEqual(['clash/a.md', 'clash/b.md']);
    const rows = await deps.db.select().from(documents).where(eq(documents.key, 'clash/a.md/inner.md'));
    expect(rows).toEqual([]);
  });

  it('makes changed bytes version 2 and keeps version 1', async () => {
    const [first] = await service.ingest([{ key: 'change/a.md', bytes: utf8('# One\n\nFirst text.\n') }]);
    const [second] = await service.ingest([{ key: 'change/a.md', bytes: utf8('# Two\n\nSecond text.\n') }]);
    expect(second).toMatchObject({ status: 'ready', version: 2, documentId: first?.documentId });
    const id = first?.documentId ?? '';
    expect(await documentRow(id)).toMatchObject({ currentVersion: 2, status: 'ready' });
    expect((await versionsOf(id)).map((v) => [v.version, v.status])).toEqual([
      [1, 'ready'],
      [2, 'ready'],
    ]);
    const v1Titles = await deps.db
      .select({ title: nodes.title })
      .from(nodes)
      .where(and(eq(nodes.documentId, id), eq(nodes.version, 1), eq(nodes.nodeType, 'section')));
    expect(v1Titles.map((t) => t.title)).toEqual(['One']);
  });

  it('fails the version with the thrown reason and keeps the previous version current', async () => {
    const [first] = await service.ingest([{ key: 'fail/a.md', bytes: utf8('# Good\n\nWorks.\n') }]);
    const failing = createIngestService(deps, {
      steps: {
        Summarize: async () => {
          throw new Error('the summarizer exploded');
        },
      },
    });
    const [second] = await failing.ingest([{ key: 'fail/a.md', bytes: utf8('# Bad\n\nBreaks.\n') }]);
    expect(second).toMatchObject({ status: 'failed', version: 2, error: 'the summarizer exploded' });
    const id = first?.documentId ?? '';
    const versions = await versionsOf(id);
    expect(versions[1]).toMatchObject({ status: 'failed', error: 'the summarizer exploded' });
    expect(await documentRow(id)).toMatchObject({
      currentVersion: 1,
      status: 'ready',
      statusDetail: 'version 2 failed: the summarizer exploded',
    });
  });

  it('records the step where a dependency failed, with the provider named in the reason', async () => {
    const broken = createIngestService({
      ...deps,
      providers: {
        label: 'broken',
        embedder: {
          model: 'offline-hash-v1',
          dimensions: 64,
          embed: async () => {
            throw new Error('out of memory');
          },
        },
      },
    });
    const [outcome] = await broken.ingest([{ key: 'broken/a.md', bytes: utf8('# Broken\n\nText.\n') }]);
    expect(outcome).toMatchObject({ status: 'failed', version: 1 });
    expect(outcome?.error).toMatch(/offline-hash-v1.*out of memory/);
    const [version] = await versionsOf(outcome?.documentId ?? '');
    expect(version).toMatchObject({ status: 'failed', step: 'summarize', error: outcome?.error });
    expect(await documentRow(outcome?.documentId ?? '')).toMatchObject({
      status: 'failed',
      statusDetail: outcome?.error,
      currentVersion: null,
    });
  });

  it('retries a step that fails with a transient error and then succeeds', async () => {
    let attempts = 0;
    const events: PipelineEvent[] = [];
    const flaky = createIngestService(deps, {
      retryDelayMs: 1,
      steps: {
        Parse: async (input, d) => {
          attempts++;
          if (attempts === 1) throw Object.assign(new Error('connection reset'), { name: 'TransientError' });
          return parse(input, d);
        },
      },
    });
    const [outcome] = await flaky.ingest(
      [{ key: 'flaky/a.md', bytes: utf8('# Flaky\n\nText.\n') }],
      undefined,
      (e) => events.push(e),
    );
    expect(outcome).toMatchObject({ status: 'ready', version: 1 });
    expect(attempts).toBe(2);
    const parseEnds = events.filter((e) => e.type === 'step-finished' && e.step === 'Parse');
    expect(parseEnds.map((e) => (e.type === 'step-finished' ? (e.error ?? 'ok') : ''))).toEqual([
      'connection reset',
      'ok',
    ]);
  });

  it('reports each step of each document to the event hook, in order', async () => {
    const events: PipelineEvent[] = [];
    await service.ingest([{ key: 'events/a.md', bytes: utf8('# Events\n\nText.\n') }], undefined, (e) =>
      events.push(e),
    );
    const steps = events
      .filter((e) => e.type === 'step-started')
      .map((e) => (e.type === 'step-started' ? e.step : ''));
    expect(steps).toEqual(['Register', 'Parse', 'Summarize', 'Topics', 'Activate']);
    expect(events[0]).toEqual({ type: 'queued', key: 'events/a.md' });
    expect(events.at(-1)).toMatchObject({ type: 'finished', outcome: { status: 'ready' } });
  });

  it('answers submit at once with document ids and finishes the work in the background', async () => {
    const submitted = await service.submit([
      { key: 'bg/a.md', bytes: utf8('# A\n\nAlpha.\n') },
      { key: 'bg/b.md', bytes: utf8('# B\n\nBeta.\n') },
    ]);
    expect(submitted.map((s) => [s.key, s.status])).toEqual([
      ['bg/a.md', 'queued'],
      ['bg/b.md', 'queued'],
    ]);
    await service.idle();
    for (const s of submitted)
      expect(await documentRow(s.documentId ?? '')).toMatchObject({ status: 'ready', currentVersion: 1 });
  });

  it('starts executions while the rest of a batch is written, and versions each upload of one key in it', async () => {
    const seen: string[] = [];
    const store = Object.create(deps.store) as typeof deps.store;
    store.put = (key, bytes, options) => {
      seen.push(`put ${key}`);
      return deps.store.put(key, bytes, options);
    };
    const streaming = createIngestService({ ...deps, store }, { retryDelayMs: 1 });
    const files = [
      { key: 'stream/twice.md', bytes: utf8('# Twice\n\nThe first upload.\n') },
      ...Array.from({ length: 6 }, (_, i) => ({
        key: `stream/${i}.md`,
        bytes: utf8(`# File ${i}\n\nText ${i}.\n`),
      })),
      { key: 'stream/twice.md', bytes: utf8('# Twice\n\nThe second upload.\n') },
    ];
    const outcomes = await streaming.ingest(files, undefined, (event) => {
      if (event.type === 'started') seen.push(`started ${event.key}`);
    });
    expect(outcomes.map((o) => o.status)).toEqual(Array(files.length).fill('ready'));
    expect(seen.indexOf('started stream/twice.md')).toBeLessThan(seen.lastIndexOf('put stream/5.md'));
    const twice = outcomes[0]?.documentId ?? '';
    expect(outcomes.at(-1)?.documentId).toBe(twice);
    const versions = await versionsOf(twice);
    expect(versions.map((v) => [v.version, v.status])).toEqual([
      [1, 'ready'],
      [2, 'ready'],
    ]);
    expect(await documentRow(twice)).toMatchObject({ currentVersion: 2 });
  });
});

describe('ingest pipeline with bad files', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db, { limits: { maxFileBytes: 4096 } });
  });
  afterAll(async () => {
    await deps.dispose();
    await database.close();
  });

  it('fails each bad file with its own reason and ingests the good ones beside them', async () => {
    const service = createIngestService(deps);
    const latin1 = new Uint8Array([
      ...utf8('# Caf'),
      0xe9,
      ...utf8('\n\nCr'),
      0xe8,
      ...utf8('me br\u00fbl\u00e9e.\n'),
    ]);
    const outcomes = await service.ingest([
      { key: 'batch/good-1.md', bytes: utf8('# Good one\n\nFine text.\n') },
      { key: 'batch/picture.md', bytes: pngBytes(4, 4) },
      { key: 'batch/empty.md', bytes: new Uint8Array(0) },
      { key: 'batch/latin1.md', bytes: latin1 },
      { key: 'batch/huge.md', bytes: utf8(`# Huge\n\n${'word '.repeat(2000)}\n`) },
      { key: 'batch/good-2.md', bytes: utf8('# Good two\n\nMore fine text.\n') },
    ]);
    const byKey = Object.fromEntries(outcomes.map((o) => [o.key.slice('batch/'.length), o]));
    expect(byKey['good-1.md']).toMatchObject({ status: 'ready', version: 1 });
    expect(byKey['good-2.md']).toMatchObject({ status: 'ready', version: 1 });
    expect(byKey['picture.md']?.error).toMatch(/picture\.md is named \.md but contains binary data/);
    expect(byKey['empty.md']?.error).toMatch(/empty\.md: the file is empty/);
    expect(byKey['latin1.md']?.error).toMatch(/not valid UTF-8/);
    expect(byKey['huge.md']?.error).toBe(
      'huge.md: the file is 9.8 KB, above the 4.0 KB limit (limits.maxFileBytes)',
    );
    for (const name of ['picture.md', 'empty.md', 'latin1.md', 'huge.md']) {
      const outcome = byKey[name];
      expect(outcome, name).toMatchObject({ status: 'failed', version: 1 });
      const [doc] = await deps.db
        .select()
        .from(documents)
        .where(eq(documents.id, outcome?.documentId ?? ''));
      expect(doc, name).toMatchObject({
        status: 'failed',
        statusDetail: outcome?.error,
        currentVersion: null,
      });
      const [version] = await deps.db
        .select()
        .from(documentVersions)
        .where(eq(documentVersions.documentId, outcome?.documentId ?? ''));
      expect(version, name).toMatchObject({ status: 'failed', error: outcome?.error });
    }
  });

  it('reports the same bytes of a failed file as failed again, with the reason, and makes no version', async () => {
    const service = createIngestService(deps);
    const [first] = await service.ingest([{ key: 'again/empty.md', bytes: new Uint8Array(0) }]);
    const [second] = await service.ingest([{ key: 'again/empty.md', bytes: new Uint8Array(0) }]);
    expect(second).toMatchObject({ status: 'failed', version: 1, error: first?.error });
    const versions = await deps.db
      .select()
      .from(documentVersions)
      .where(eq(documentVersions.documentId, second?.documentId ?? ''));
    expect(versions).toHaveLength(1);
  });
});
