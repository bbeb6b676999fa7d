/**
 * Watched-folder benchmark, on real files in a temporary folder followed by the watcher:
 * - a small Markdown file saved in the folder until a keyword search finds it (target < 3 s);
 * - BENCH_WATCH_FILES (default 1,000) files copied in at once: every one indexed exactly once
 *   (one `ingested` event and one ready version each), none lost, and how long it took.
 *
 * Alone: `node bin/run-ts.js bench/watch.ts`.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { loadConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { search } from '#shared/search/index.ts';
import { createFolderWatcher, type WatchEvent } from '#shared/watch/index.ts';

type Row = { metric: string; value: string; target: string };

const FILES = Number(process.env.BENCH_WATCH_FILES ?? 1000);

/** Runs both measurements with a watcher on a fresh folder; returns the table rows. */
export async function benchWatch(rt: Runtime, results: Record<string, unknown>): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'dropqa-bench-watch-'));
  const folder = join(root, `watched-${Date.now().toString(36)}`);
  mkdirSync(folder);
  const events: WatchEvent[] = [];
  const watcher = createFolderWatcher(rt, { ...rt.config.watch, directories: [folder] }, (e) =>
    events.push(e),
  );
  try {
    await watcher.start();
    const saved = performance.now();
    writeFileSync(join(folder, 'saved.md'), '# Kiosk\n\nThe quartz kiosk opens at dawn.\n');
    let searchable = Number.NaN;
    while (performance.now() - saved < 30_000) {
      const hits = await search(rt.qa, { query: 'quartz kiosk', kind: 'keyword' });
      if (hits.length > 0) {
        searchable = (performance.now() - saved) / 1000;
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }

    const copied = performance.now();
    mkdirSync(join(folder, 'burst'));
    for (let i = 0; i < FILES; i += 1) {
      writeFileSync(
        join(folder, 'burst', `file-${i}.md`),
        `# Burst ${i}\n\nFile number ${i} of the burst.\n`,
      );
    }
    const prefix = `watch/${folder.slice(folder.lastIndexOf('/') + 1)}/burst/`;
    const count = async () =>
      Number(
        (
          await queryRows<{ n: number }>(
            rt.db,
            sql`SELECT count(*)::int AS n FROM documents WHERE key LIKE ${`${prefix}%`} AND status = 'ready'`,
          )
        )[0]?.n ?? 0,
      );
    while ((await count()) < FILES && performance.now() - copied < 30 * 60_000) {
      await new Promise((r) => setTimeout(r, 500));
    }
    await watcher.idle();
    const seconds = (performance.now() - copied) / 1000;
    const [versions] = await queryRows<{ docs: number; versions: number }>(
      rt.db,
      sql`SELECT count(DISTINCT d.id)::int AS docs, count(v.id)::int AS versions FROM documents d
          JOIN document_versions v ON v.document_id = d.id WHERE d.key LIKE ${`${prefix}%`}`,
    );
    const ingested = events.filter((e) => e.key.startsWith(prefix) && e.action === 'ingested');
    const once = new Set(ingested.map((e) => e.key)).size === ingested.length;
    results.watch = {
      searchableSeconds: searchable,
      files: FILES,
      seconds,
      ...versions,
      events: ingested.length,
    };
    return [
      {
        metric: 'watched folder: saved .md until search finds it',
        value: `${searchable.toFixed(2)} s`,
        target: '< 3 s',
      },
      {
        metric: `watched folder: ${FILES} files copied at once`,
        value: `${versions?.docs ?? 0} documents, ${versions?.versions ?? 0} versions, ${ingested.length} ingest events${once ? '' : ' (DUPLICATES)'} in ${seconds.toFixed(0)} s`,
        target: `${FILES} each, exactly once`,
      },
    ];
  } finally {
    await watcher.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-bench-watch-data-'));
  const rt = await openRuntime(loadConfig({ overrides: { dataDir } }));
  try {
    const results: Record<string, unknown> = {};
    for (const row of await benchWatch(rt, results))
      console.log(`| ${row.metric} | ${row.value} | ${row.target} |`);
    console.log(JSON.stringify(results.watch));
  } finally {
    await rt.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
