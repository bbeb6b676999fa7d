import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { search } from '#shared/search/index.ts';
import { createFolderWatcher, type FolderWatcher, type WatchEvent } from '#shared/watch/index.ts';

/** The watcher on real file operations in a temporary folder, ingesting with the offline runtime. */

interface DocRow {
  id: string;
  key: string;
  deleted: boolean;
  versions: number;
}

describe('watched folders', () => {
  let root: string;
  let folder: string;
  let rt: Runtime;
  let watcher: FolderWatcher;
  const events: WatchEvent[] = [];

  const file = (path: string) => join(folder, ...path.split('/'));
  const write = (path: string, text: string) => writeFileSync(file(path), text);
  const docs = async (): Promise<DocRow[]> =>
    (
      await queryRows<{ id: string; key: string; deleted: boolean; versions: number }>(
        rt.db,
        sql`SELECT d.id, d.key, d.deleted_at IS NOT NULL AS deleted,
              (SELECT count(*) FROM document_versions v WHERE v.document_id = d.id AND v.status = 'ready')::int AS versions
            FROM documents d ORDER BY d.created_at`,
      )
    ).map((row) => ({ ...row, versions: Number(row.versions) }));
  const live = async (key: string) => (await docs()).find((d) => d.key === key && !d.deleted);
  /** Polls until `check` holds (the watcher works asynchronously), then lets the queue drain. */
  const until = async (check: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 20_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await watcher.idle();
  };
  const startWatcher = async () => {
    watcher = createFolderWatcher(
      rt,
      { ...rt.config.watch, directories: [folder], debounceMs: 150, renameWindowMs: 600, concurrency: 2 },
      (event) => events.push(event),
    );
    await watcher.start();
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dropqa-watch-'));
    folder = join(root, 'handbook');
    mkdirSync(join(folder, 'policies'), { recursive: true });
    rt = await openRuntime(
      parseConfig({ dataDir: join(root, 'data'), providers: { ocr: { kind: 'none' } } }),
    );
    await startWatcher();
  });
  afterAll(async () => {
    await watcher?.close();
    await rt?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('ingests a new file under watch/<folder>/<relative path>, and a change as a new version', async () => {
    write('policies/refunds.md', '# Refunds\n\nRefunds are accepted within 14 days.\n');
    await until(async () => (await live('watch/handbook/policies/refunds.md'))?.versions === 1, 'version 1');
    write('policies/refunds.md', '# Refunds\n\nRefunds are accepted within 30 days.\n');
    await until(async () => (await live('watch/handbook/policies/refunds.md'))?.versions === 2, 'version 2');
    const hits = await search(rt.qa, { query: 'refunds accepted days', kind: 'keyword' });
    expect(hits.map((h) => h.content)).toContain('Refunds are accepted within 30 days.');
  });

  it('ingests a file written in several quick writes once, when complete', async () => {
    const path = file('travel.md');
    writeFileSync(path, '# Travel\n\nTrains are pre');
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(path, '# Travel\n\nTrains are preferred over flights.\n');
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(path, '# Travel\n\nTrains are preferred over flights for short trips.\n');
    await until(async () => (await live('watch/handbook/travel.md')) !== undefined, 'travel.md');
    await new Promise((r) => setTimeout(r, 600));
    await watcher.idle();
    const doc = await live('watch/handbook/travel.md');
    expect(doc?.versions).toBe(1);
    const ingested = events.filter((e) => e.key === 'watch/handbook/travel.md' && e.action === 'ingested');
    expect(ingested).toHaveLength(1);
    const [row] = await queryRows<{ content: string }>(
      rt.db,
      sql`SELECT content FROM nodes WHERE document_id = ${doc?.id}::uuid AND node_type = 'paragraph'`,
    );
    expect(row?.content).toBe('Trains are preferred over flights for short trips.');
  });

  it('keeps the history of a file renamed or moved with the same bytes', async () => {
    const before = await live('watch/handbook/policies/refunds.md');
    renameSync(file('policies/refunds.md'), file('refund-policy.md'));
    await until(async () => (await live('watch/handbook/refund-policy.md')) !== undefined, 'the rename');
    const after = await live('watch/handbook/refund-policy.md');
    expect(after?.id).toBe(before?.id);
    expect(after?.versions).toBe(2);
    expect(await live('watch/handbook/policies/refunds.md')).toBeUndefined();
    expect(
      events.some((e) => e.action === 'renamed' && e.fromKey === 'watch/handbook/policies/refunds.md'),
    ).toBe(true);
    expect(await rt.store.head('watch/handbook/refund-policy.md')).toBeTruthy();
    expect(await rt.store.head('watch/handbook/policies/refunds.md')).toBeFalsy();
  });

  it('deletes the document of a deleted file', async () => {
    const doc = await live('watch/handbook/travel.md');
    unlinkSync(file('travel.md'));
    await until(async () => (await live('watch/handbook/travel.md')) === undefined, 'the deletion');
    expect((await docs()).find((d) => d.id === doc?.id)?.deleted).toBe(true);
  });

  it('never ingests lock, temp, swap or hidden files, nor other extensions', async () => {
    write('~$refund-policy.docx', 'lock');
    write('.~lock.refund-policy.docx#', 'lock');
    write('.notes.md', '# Hidden\n\nNot for indexing.\n');
    write('draft.md.swp', 'swap');
    write('image.bmp', 'BM');
    write('seen.md', '# Seen\n\nThis one is indexed.\n');
    await until(async () => (await live('watch/handbook/seen.md')) !== undefined, 'seen.md');
    const keys = (await docs()).map((d) => d.key);
    expect(keys.filter((k) => /~|\.notes|swp|bmp/.test(k))).toEqual([]);
  });

  it('catches up on start with what changed while stopped: added, changed, renamed, deleted', async () => {
    await watcher.close();
    const seen = await live('watch/handbook/seen.md');
    const policy = await live('watch/handbook/refund-policy.md');
    write('added-offline.md', '# Added\n\nWritten while DropQA was stopped.\n');
    write('refund-policy.md', '# Refunds\n\nRefunds are accepted within 60 days.\n');
    renameSync(file('seen.md'), file('policies/seen-again.md'));
    writeFileSync(join(root, 'unrelated.md'), 'outside the folder');
    events.length = 0;
    await startWatcher();
    await until(async () => (await live('watch/handbook/added-offline.md')) !== undefined, 'the catch-up');
    expect((await live('watch/handbook/refund-policy.md'))?.versions).toBe(3);
    expect((await live('watch/handbook/refund-policy.md'))?.id).toBe(policy?.id);
    expect((await live('watch/handbook/policies/seen-again.md'))?.id).toBe(seen?.id);
    expect(await live('watch/handbook/seen.md')).toBeUndefined();

    await watcher.close();
    unlinkSync(file('added-offline.md'));
    await startWatcher();
    expect(await live('watch/handbook/added-offline.md')).toBeUndefined();
    const status = await watcher.status();
    expect(status.ready).toBe(true);
    expect(status.folders).toEqual([
      expect.objectContaining({ directory: folder, prefix: 'watch/handbook/', documents: 2, pending: 0 }),
    ]);
    expect(status.folders[0]?.lastSync).toMatch(/^\d{4}-/);
  });
});
