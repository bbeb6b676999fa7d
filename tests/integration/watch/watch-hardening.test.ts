import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import { removeVanishedObjects } from '#shared/documents/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { createFolderWatcher, type FolderWatcher, type WatchEvent } from '#shared/watch/index.ts';

/**
 * The watcher against hostile-but-realistic folders (issue 28): symbolic links leading out of the
 * folder, a file far above limits.maxFileBytes, a slow writer, a file written while it is read.
 */

/** Files whose first read gets `append` written to them right after (a writer racing the reader). */
const racing = vi.hoisted(() => new Map<string, string>());
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...fs,
    readFile: (async (...args: Parameters<typeof fs.readFile>) => {
      const bytes = await fs.readFile(...args);
      const path = String(args[0]);
      const append = racing.get(path);
      if (append !== undefined) {
        racing.delete(path);
        await fs.appendFile(path, append);
      }
      return bytes;
    }) as typeof fs.readFile,
  };
});

interface VersionRow {
  key: string;
  deleted: boolean;
  status: string;
  detail: string | null;
  version: number | null;
  vstatus: string | null;
  error: string | null;
  objectKey: string | null;
  content: string | null;
}

const MAX_FILE_BYTES = 1024 * 1024;

describe('watched folders: links, size, slow and racing writers', () => {
  let root: string;
  let folder: string;
  let outside: string;
  let rt: Runtime;
  let watcher: FolderWatcher;
  const events: WatchEvent[] = [];

  const file = (path: string) => join(folder, ...path.split('/'));
  const rows = async (): Promise<VersionRow[]> =>
    queryRows<VersionRow>(
      rt.db,
      sql`SELECT d.key, d.deleted_at IS NOT NULL AS deleted, d.status, d.status_detail AS detail,
            v.version, v.status AS vstatus, v.error, v.object_key AS "objectKey",
            (SELECT string_agg(n.content, ' ' ORDER BY n.ordinal) FROM nodes n
              WHERE n.document_id = d.id AND n.version = v.version AND n.node_type = 'paragraph') AS content
          FROM documents d LEFT JOIN document_versions v ON v.document_id = d.id
          ORDER BY d.key, v.version`,
    );
  const liveKeys = async () =>
    [...new Set((await rows()).filter((r) => !r.deleted).map((r) => r.key))].sort();
  const versionsOf = async (key: string) => (await rows()).filter((r) => r.key === key && !r.deleted);
  const until = async (check: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 30_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await watcher.idle();
  };
  const startWatcher = async () => {
    // The default quiet period and rename window: the slow-writer and rename tests rely on them.
    watcher = createFolderWatcher(rt, { ...rt.config.watch, directories: [folder] }, (event) =>
      events.push(event),
    );
    await watcher.start();
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dropqa-watch-hard-'));
    folder = join(root, 'handbook');
    outside = join(root, 'elsewhere');
    mkdirSync(join(outside, 'etc'), { recursive: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(outside, 'secret.md'), '# Secret\n\nThe root password is hunter2.\n');
    writeFileSync(join(outside, 'etc', 'hosts.md'), '# Hosts\n\nlocalhost is 127.0.0.1.\n');
    writeFileSync(file('inside.md'), '# Inside\n\nThe refund window is 30 days.\n');
    // Present at the start: the start-up scan meets them.
    symlinkSync(join(outside, 'secret.md'), file('secret-link.md'));
    symlinkSync(join(outside, 'etc'), file('etc'));
    rt = await openRuntime(
      parseConfig({
        dataDir: join(root, 'data'),
        providers: { ocr: { kind: 'none' } },
        limits: { maxFileBytes: MAX_FILE_BYTES },
      }),
    );
    await startWatcher();
    await until(async () => (await liveKeys()).includes('watch/handbook/inside.md'), 'inside.md');
  });
  afterAll(async () => {
    await watcher?.close();
    await rt?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('follows no symbolic link, out of the folder or within it, live or at the start', async () => {
    // Added while watching: the live path meets them.
    symlinkSync(join(outside, 'secret.md'), file('live-secret.md'));
    symlinkSync(join(outside, 'etc'), file('live-etc'));
    symlinkSync(file('inside.md'), file('inside-link.md'));
    writeFileSync(file('after.md'), '# After\n\nWritten after the links.\n');
    await until(async () => (await liveKeys()).includes('watch/handbook/after.md'), 'after.md');
    await sleep(500);
    await watcher.idle();
    const expected = ['watch/handbook/after.md', 'watch/handbook/inside.md'];
    expect(await liveKeys()).toEqual(expected);
    // The start-up scan agrees with the live watcher: nothing is deleted or added at a restart.
    await watcher.close();
    await startWatcher();
    await watcher.idle();
    expect(await liveKeys()).toEqual(expected);
    expect(events.filter((e) => e.action === 'deleted')).toEqual([]);
    const status = await watcher.status();
    expect(status.rules).toEqual({
      symlinks: 'not followed',
      maxFileBytes: MAX_FILE_BYTES,
      quietMs: rt.config.watch.debounceMs,
    });
  });

  it('refuses a file over limits.maxFileBytes from its size: nothing read, nothing stored, a clear reason', async () => {
    const key = 'watch/handbook/huge.md';
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    try {
      // 400 MB of holes: no disk used, but any read of it makes 400 MB of zeros.
      writeFileSync(file('huge.md'), '# Huge\n');
      truncateSync(file('huge.md'), 400 * 1024 * 1024);
      await until(async () => (await versionsOf(key)).some((r) => r.vstatus === 'failed'), 'the refusal');
    } finally {
      clearInterval(sampler);
    }
    expect(peak - baseline).toBeLessThan(150 * 1024 * 1024);
    const [version, ...more] = await versionsOf(key);
    expect(more).toEqual([]);
    expect(version).toMatchObject({ status: 'failed', version: 1, vstatus: 'failed', objectKey: '' });
    expect(version?.error).toMatch(
      /huge\.md: the file is 400\.0 MB, above the 1\.0 MB limit \(limits\.maxFileBytes\)/,
    );
    expect(version?.detail).toMatch(/limits\.maxFileBytes/);
    expect(await rt.store.head(key)).toBeUndefined();
    expect((await watcher.status()).folders[0]?.lastError).toMatch(/limits\.maxFileBytes/);
    // The bucket scan does not take the missing object for a deletion, and a restart adds nothing.
    expect(await removeVanishedObjects(rt.db, rt.store)).toEqual([]);
    await watcher.close();
    await startWatcher();
    await watcher.idle();
    expect((await versionsOf(key)).map((r) => r.version)).toEqual([1]);
  });

  it('waits out a slow writer: one version, of the whole file', async () => {
    const key = 'watch/handbook/slow.md';
    const path = file('slow.md');
    writeFileSync(path, '# Slow\n\nThe first half of the policy says refunds take 30 days.');
    // Pauses under the default quiet period (1 s); 300 ms was the old debounce.
    for (const part of [' The second half', ' says they need a receipt', '.\n']) {
      await sleep(600);
      appendFileSync(path, part);
    }
    await until(async () => (await versionsOf(key)).some((r) => r.vstatus === 'ready'), 'slow.md');
    await sleep(1500);
    await watcher.idle();
    const versions = await versionsOf(key);
    expect(versions.map((v) => [v.version, v.vstatus])).toEqual([[1, 'ready']]);
    expect(versions[0]?.content).toContain('they need a receipt.');
  });

  it('reads again a file that changed while it was read: no version of half-old bytes', async () => {
    const key = 'watch/handbook/raced.md';
    const path = file('raced.md');
    racing.set(path, ' Amended: bring the receipt.\n');
    writeFileSync(path, '# Raced\n\nRefunds take 30 days.');
    await until(async () => (await versionsOf(key)).some((r) => r.vstatus === 'ready'), 'raced.md');
    await sleep(1500);
    await watcher.idle();
    const versions = await versionsOf(key);
    expect(versions.map((v) => [v.version, v.vstatus])).toEqual([[1, 'ready']]);
    expect(versions[0]?.content).toContain('Amended: bring the receipt.');
  });

  it('keeps the history of a renamed file with the default quiet period and rename window', async () => {
    const before = (await versionsOf('watch/handbook/inside.md'))[0];
    renameSync(file('inside.md'), file('inside-renamed.md'));
    await until(async () => (await liveKeys()).includes('watch/handbook/inside-renamed.md'), 'the rename');
    await sleep(rt.config.watch.debounceMs + rt.config.watch.renameWindowMs + 500);
    await watcher.idle();
    expect(events.some((e) => e.action === 'renamed' && e.key === 'watch/handbook/inside-renamed.md')).toBe(
      true,
    );
    expect(await liveKeys()).not.toContain('watch/handbook/inside.md');
    expect((await versionsOf('watch/handbook/inside-renamed.md'))[0]?.version).toBe(before?.version);
  });

  it("ingests an editor's save through a temp file once, after the rename", async () => {
    const key = 'watch/handbook/edited.md';
    const temp = file('edited.md.tmp');
    writeFileSync(temp, '# Edited\n\nDraft');
    await sleep(300);
    appendFileSync(temp, ' finished: refunds need a receipt.\n');
    renameSync(temp, file('edited.md'));
    await until(async () => (await versionsOf(key)).some((r) => r.vstatus === 'ready'), 'edited.md');
    const versions = await versionsOf(key);
    expect(versions.map((v) => v.version)).toEqual([1]);
    expect(versions[0]?.content).toContain('finished: refunds need a receipt.');
    expect((await liveKeys()).filter((k) => k.endsWith('.tmp'))).toEqual([]);
  });
});
