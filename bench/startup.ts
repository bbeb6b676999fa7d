/**
 * `node bin/run-ts.js bench/startup.ts <data folder>`: where a server's start on an existing data
 * folder spends its time, phase by phase (wall and process CPU seconds, the database worker
 * included): opening the runtime, crash recovery, full-text searches ranked in SQL (what answers
 * while the in-memory index loads), the in-memory BM25 index's load from the database, its snapshot
 * written and read back (what a later start does), and a full-text search from it; with the heap
 * before and after the load. `bench/scale.ts --keep <dir>` leaves folders to try it on. The folder's
 * snapshot is left as a close writes it.
 */
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import { recoverRuntime } from '#shared/runtime/recover.ts';
import { openRuntime } from '#shared/runtime/runtime.ts';
import { fulltextSearch } from '#shared/search/fulltext.ts';
import { type Timing, timed, timeIndexLoads } from './index-load.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: bench/startup.ts <data folder>');

const phases: ({ phase: string } & Timing)[] = [];
async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  const { result, wall, cpu } = await timed(run);
  phases.push({ phase: name, wall, cpu });
  return result;
}

const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;
const rt = await phase('openRuntime', () => openRuntime(loadConfig({ overrides: { dataDir } })));
await phase('recoverRuntime', () => recoverRuntime(rt));
await rt.reanalysis?.done;
const deps = { ...rt.qa, access: ALL_COLLECTIONS };
const inSql = { ...deps, search: { ...deps.search, bm25: { ...deps.search.bm25, memoryIndex: false } } };
// What the first searches get while the in-memory index loads.
await phase('full-text search in SQL', () => fulltextSearch(inSql, 'budget review', {}, 10));
await phase('full-text search in SQL, again', () => fulltextSearch(inSql, 'storage cost', {}, 10));
const heapBefore = heapMb();
const loads = await timeIndexLoads(rt);
phases.push(
  { phase: 'in-memory BM25 index load from the database', ...loads.fromDatabase },
  { phase: `its snapshot written (${loads.snapshotMb.toFixed(0)} MB)`, ...loads.write },
  { phase: 'its snapshot read back', ...loads.read },
);
global.gc?.();
const heapAfter = heapMb();
await phase('full-text search from memory', () => fulltextSearch(deps, 'budget review', {}, 10));
await rt.close();

for (const p of phases)
  process.stdout.write(
    `${p.phase.padEnd(44)} ${p.wall.toFixed(2).padStart(8)} s  CPU ${p.cpu.toFixed(2)} s\n`,
  );
process.stdout.write(
  `heap used ${heapBefore.toFixed(0)} MB before the load, ${heapAfter.toFixed(0)} MB after; RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB\n`,
);
process.exit(0);
