import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANALYZER_VERSION } from '#shared/index/analyze.ts';
import { type Runtime, searchSnapshotFile } from '#shared/runtime/runtime.ts';
import { SNAPSHOT_FORMAT, writeIndexSnapshot } from '#shared/search/memory-snapshot.ts';
import {
  invalidateMemoryIndex,
  keepMemoryIndexSnapshot,
  saveMemoryIndexSnapshot,
  syncedMemoryIndex,
  warmSearchIndex,
} from '#shared/search/memory-sync.ts';

/** Wall and process CPU seconds (the database worker included) of one phase. */
export interface Timing {
  wall: number;
  cpu: number;
}

export async function timed<T>(run: () => Promise<T>): Promise<{ result: T } & Timing> {
  const began = performance.now();
  const cpu = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(cpu);
  return { result, wall: (performance.now() - began) / 1000, cpu: (used.user + used.system) / 1e6 };
}

/**
 * The in-memory BM25 index's three ways in, on an opened runtime: its load from the database (a
 * first start), the snapshot's write (a close) and its read back (every later start, brought up to
 * date). The snapshot goes to a scratch file; the data folder's is left as the write made it, so a
 * server started on the folder afterwards reads it back.
 */
export async function timeIndexLoads(
  rt: Pick<Runtime, 'db' | 'config'>,
): Promise<{ fromDatabase: Timing; write: Timing; read: Timing; snapshotMb: number }> {
  const scratch = mkdtempSync(join(tmpdir(), 'dropqa-bench-snapshot-'));
  const file = join(scratch, 'bm25-index.snapshot');
  try {
    invalidateMemoryIndex(rt.db);
    keepMemoryIndexSnapshot(rt.db, file);
    const fromDatabase = await timed(() => warmSearchIndex(rt.db));
    // A load of 100 documents or more writes its snapshot by itself (in the background): timed apart.
    const index = await syncedMemoryIndex(rt.db);
    const stamp = { format: SNAPSHOT_FORMAT, analyzerVersion: ANALYZER_VERSION, fingerprint: 'timed' };
    const write = await timed(() => writeIndexSnapshot(join(scratch, 'timed'), index.toImage(), stamp));
    await saveMemoryIndexSnapshot(rt.db);
    invalidateMemoryIndex(rt.db);
    const read = await timed(() => warmSearchIndex(rt.db));
    copyFileSync(file, searchSnapshotFile(rt.config));
    return { fromDatabase, write, read, snapshotMb: statSync(file).size / 2 ** 20 };
  } finally {
    keepMemoryIndexSnapshot(rt.db, searchSnapshotFile(rt.config));
    rmSync(scratch, { recursive: true, force: true });
  }
}
