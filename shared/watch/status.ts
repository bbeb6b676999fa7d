import type { Config } from '#shared/config/index.ts';
import type { Db } from '#shared/db/client.ts';
import { watchedFolders } from './folders.ts';
import { knownDocuments } from './known.ts';
import type { WatchRulesStatus, WatchStatus } from './types.ts';

// Apart from the watcher (chokidar and the pipeline): `dropqa status` reports stopped folders only.

/** The rules every watched folder follows, as the status reports them. */
export function watchRulesStatus(settings: Config['watch'], maxFileBytes: number): WatchRulesStatus {
  return { symlinks: 'not followed', maxFileBytes, quietMs: settings.debounceMs };
}

/** The status of folders no watcher follows in this process: their document counts only. */
export async function stoppedWatchStatus(
  db: Db,
  config: Pick<Config, 'watch' | 'limits'>,
): Promise<WatchStatus> {
  const folders = watchedFolders(config.watch.directories);
  return {
    running: false,
    ready: false,
    rules: watchRulesStatus(config.watch, config.limits.maxFileBytes),
    folders: await Promise.all(
      folders.map(async (folder) => ({
        directory: folder.dir,
        prefix: folder.prefix,
        documents: (await knownDocuments(db, folder.prefix)).length,
        pending: 0,
        lastSync: null,
        lastError: null,
      })),
    ),
  };
}
