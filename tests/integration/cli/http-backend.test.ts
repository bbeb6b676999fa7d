import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '#shared/api/serve.ts';
import { HttpBackend } from '#shared/cli/http-backend.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { IngestOutcome } from '#shared/pipeline/ingest.ts';

/**
 * The lifecycle commands (`versions`, `reindex`, `delete`, `status`) as the CLI runs them when a
 * server holds the data folder: through the HTTP API, with the same outcomes as in-process.
 */
describe('CLI lifecycle commands through a running server', () => {
  let dir: string;
  let server: { url: string; close(): Promise<void> };
  let backend: HttpBackend;

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return { key: `uploads/${name}`, path, filename: name };
  };
  const ingest = async (name: string, text: string) => {
    const seen: IngestOutcome[] = [];
    const outcomes = await backend.ingest([file(name, text)], [], (o) => seen.push(o));
    expect(seen).toEqual(outcomes);
    return outcomes[0];
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-http-backend-'));
    server = await startServer(
      loadConfig({ env: {}, overrides: { dataDir: join(dir, 'data'), server: { port: 0 } } }),
    );
    backend = new HttpBackend(server.url);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ingests, keeps versions by key, and answers a pinned version', async () => {
    expect(await ingest('plan.md', '# Plan\n\nThe budget is 3 million.\n')).toMatchObject({
      key: 'uploads/plan.md',
      status: 'ready',
      version: 1,
    });
    expect(await ingest('plan.md', '# Plan\n\nThe budget is 5 million.\n')).toMatchObject({
      status: 'ready',
      version: 2,
    });
    expect(await ingest('plan.md', '# Plan\n\nThe budget is 5 million.\n')).toMatchObject({
      status: 'unchanged',
      version: 2,
    });

    const { document, versions } = await backend.versions('plan.md');
    expect(document).toMatchObject({ key: 'uploads/plan.md', currentVersion: 2, status: 'ready' });
    expect(versions.map((v) => [v.version, v.status])).toEqual([
      [2, 'ready'],
      [1, 'ready'],
    ]);

    const diff = await backend.diff('plan.md', {});
    expect([diff.from.version, diff.to.version]).toEqual([1, 2]);
    expect(diff.sections[0]?.leaves[0]?.words?.filter((w) => w.op !== 'equal')).toEqual([
      { op: 'delete', text: '3' },
      { op: 'insert', text: '5' },
    ]);

    const hits = await backend.search({ query: 'budget million', kind: 'keyword', filters: { version: 1 } });
    expect(hits.map((h) => h.content).join(' ')).toContain('3 million');
  });

  it('reports a file the server refuses as failed with the reason, and the others of the batch as ingested', async () => {
    await ingest('clash.md', '# Clash\n\nA file where a folder is wanted.\n');
    writeFileSync(join(dir, 'inner.md'), '# Inner\n\nCannot live under a file.\n');
    const inner = { key: 'uploads/clash.md/inner.md', path: join(dir, 'inner.md'), filename: 'inner.md' };
    const outcomes = await backend.ingest(
      [inner, file('beside.md', '# Beside\n\nSent with it.\n')],
      [],
      () => {},
    );
    expect(outcomes.find((o) => o.key === 'uploads/clash.md/inner.md')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/conflicts with an existing prefix or object/),
    });
    expect(outcomes.find((o) => o.key === 'uploads/beside.md')).toMatchObject({ status: 'ready' });
  });

  it('reports an unchanged reindex as unchanged and lists the document by status and name', async () => {
    const outcome = await backend.reindex('uploads/plan.md');
    expect(outcome).toMatchObject({ key: 'uploads/plan.md', status: 'unchanged', version: 2 });
    const { items, total } = await backend.documents({ limit: 10, offset: 0, status: 'ready', name: 'plan' });
    expect(total).toBe(1);
    expect(items[0]?.key).toBe('uploads/plan.md');
  });

  it('deletes by key so search finds nothing, and names a missing document plainly', async () => {
    const removed = await backend.remove('plan.md');
    expect(removed.key).toBe('uploads/plan.md');
    expect(await backend.search({ query: 'budget million', kind: 'keyword' })).toEqual([]);
    await expect(backend.versions('plan.md')).rejects.toThrow('No document with id or key plan.md');
    await expect(backend.remove('00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      /not found|no document/i,
    );
  });

  it('names the server and the reason when it cannot be reached', async () => {
    await expect(new HttpBackend('http://127.0.0.1:9').watchStatus()).rejects.toThrow(
      /^lost the DropQA server at http:\/\/127\.0\.0\.1:9 \(connect ECONNREFUSED/,
    );
  });
});
