import { logWatchEvent } from '../../api/serve.ts';
import type { Config } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { readServerLock } from '../../runtime/lock.ts';
import { recoverRuntime } from '../../runtime/recover.ts';
import { openRuntime } from '../../runtime/runtime.ts';
import { createFolderWatcher } from '../../watch/index.ts';

/**
 * `dropqa watch [<dir>...]`: follows the folders (default: `watch.directories`) until SIGINT /
 * SIGTERM: catches up with what changed since the last run, then ingests, renames and deletes as the
 * files change. The embedded database is single-process, so with a server running on the data folder
 * the folders belong in its `watch.directories` instead.
 */
export async function watchCommand(config: Config, directories: string[]): Promise<number> {
  const dirs = directories.length > 0 ? directories : config.watch.directories;
  if (dirs.length === 0) throw new ConfigError('usage: dropqa watch <dir>... (or set watch.directories)');
  const lock = readServerLock(config.dataDir);
  if (lock) {
    throw new ConfigError(
      `A DropQA server (pid ${lock.pid}) is using this data folder: add the folders to its watch.directories and restart it`,
    );
  }
  const rt = await openRuntime(config);
  await recoverRuntime(rt);
  const watcher = createFolderWatcher(rt, { ...config.watch, directories: dirs }, logWatchEvent);
  const stop = async () => {
    process.stdout.write('Stopping...\n');
    await watcher.close();
    await rt.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await watcher.start();
  const { folders } = await watcher.status();
  for (const folder of folders) {
    process.stdout.write(
      `watching ${folder.directory} as ${folder.prefix} (${folder.documents} documents)\n`,
    );
  }
  return 0;
}
