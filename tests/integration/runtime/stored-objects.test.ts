import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '#shared/api/serve.ts';
import { type Config, loadConfig, parseConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import { contentHash } from '#shared/pipeline/unchanged.ts';
import { recoverRuntime } from '#shared/runtime/recover.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { divergedObjects } from '#shared/runtime/stored-objects.ts';
import type { BlobStore } from '#shared/storage/types.ts';

/**
 * A process killed during a re-upload, after the new bytes were written to the bucket and before the
 * document was queued, left the bucket and the database disagreeing with nothing queued (issue 28
 * point 6). The start-up recovery compares each settled document's object with its latest version
 * and queues what differs.
 */
const text = (n: number, what: string) => `# Policy ${n}\n\n${what}\n`;

describe('start-up recovery of stored objects that differ from the database', () => {
  let root: string;
  let config: Config;
  let rt: Runtime;

  const latest = async (key: string) => {
    const [row] = await queryRows<{ version: number; file_hash: string; status: string; current: number }>(
      rt.db,
      sql`SELECT v.version, v.file_hash, v.status, d.current_version AS current
          FROM documents d JOIN document_versions v ON v.document_id = d.id
          WHERE d.key = ${key} AND d.deleted_at IS NULL ORDER BY v.version DESC LIMIT 1`,
    );
    return row;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dropqa-stored-'));
    config = parseConfig({ dataDir: join(root, 'data'), providers: { ocr: { kind: 'none' } } });
    rt = await openRuntime(config);
    const outcomes = await rt.ingest.ingest([
      { key: 'uploads/longer.md', bytes: new TextEncoder().encode(text(1, 'Refunds take 30 days.')) },
      { key: 'uploads/same-size.md', bytes: new TextEncoder().encode(text(2, 'Refunds take 30 days.')) },
      { key: 'uploads/untouched.md', bytes: new TextEncoder().encode(text(3, 'Refunds take 30 days.')) },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ready', 'ready', 'ready']);
    // What the killed re-uploads left: new bytes in the bucket, the database unaware.
    await new Promise((r) => setTimeout(r, 20));
    await rt.store.put('uploads/longer.md', text(1, 'Refunds take 45 days, with a receipt.'));
    await rt.store.put('uploads/same-size.md', text(2, 'Refunds take 60 days.'));
    await rt.close();
    rt = await openRuntime(config);
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('queues each document whose object differs in size or hash, and only those', async () => {
    const report = await recoverRuntime(rt);
    expect(report.diverged.map((d) => [d.key, d.difference])).toEqual([
      ['uploads/longer.md', expect.stringMatching(/^size /)],
      ['uploads/same-size.md', 'hash'],
    ]);
    await rt.ingest.idle();
    for (const key of ['uploads/longer.md', 'uploads/same-size.md']) {
      const row = await latest(key);
      expect(row).toMatchObject({ version: 2, status: 'ready', current: 2 });
      expect(row?.file_hash).toBe(contentHash(await rt.store.get(key)));
    }
    expect(await latest('uploads/untouched.md')).toMatchObject({ version: 1, current: 1 });
  });

  it('finds nothing to do once the bucket and the database agree', async () => {
    expect((await recoverRuntime(rt)).diverged).toEqual([]);
  });

  it('looks at several objects at once, so a start does not wait for one file stat after another', async () => {
    let inFlight = 0;
    let most = 0;
    const store = Object.create(rt.store) as BlobStore;
    store.head = async (key) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        await new Promise((r) => setTimeout(r, 5));
        return await rt.store.head(key);
      } finally {
        inFlight -= 1;
      }
    };
    expect(await divergedObjects(rt.db, store)).toEqual([]);
    expect(most).toBe(3);
  });

  it('leaves an object written since the checking process started to its own upload', async () => {
    const started = new Date();
    await new Promise((r) => setTimeout(r, 20));
    await rt.store.put('uploads/untouched.md', text(3, 'Refunds take 90 days, or more.'));
    expect(await divergedObjects(rt.db, rt.store, { writtenBefore: started })).toEqual([]);
    expect((await divergedObjects(rt.db, rt.store)).map((d) => d.key)).toEqual(['uploads/untouched.md']);
  });

  it('is queued by a starting server once it listens', async () => {
    // The object of the test above, left differing, as a killed re-upload would leave it.
    await rt.close();
    const server = await startServer(
      loadConfig({ env: {}, overrides: { dataDir: join(root, 'data'), server: { port: 0 } } }),
    );
    try {
      type Versions = { versions: { version: number; status: string }[] };
      const documents = (await (await fetch(`${server.url}/api/documents?q=untouched`)).json()) as {
        items: { id: string }[];
      };
      const id = documents.items[0]?.id;
      let versions: Versions = { versions: [] };
      for (
        let i = 0;
        i < 600 && !versions.versions.some((v) => v.version === 2 && v.status === 'ready');
        i++
      ) {
        await new Promise((r) => setTimeout(r, 50));
        versions = (await (await fetch(`${server.url}/api/documents/${id}/versions`)).json()) as Versions;
      }
      expect(versions.versions.map((v) => [v.version, v.status])).toContainEqual([2, 'ready']);
    } finally {
      await server.close();
      rt = await openRuntime(config);
    }
  });
});
