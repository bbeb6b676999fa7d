import { resolve } from 'node:path';
import type { Config } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { locateData } from '../data-folder.ts';
import { HttpBackend } from '../http-backend.ts';

/**
 * `dropqa watch [<dir>...]`: follows the folders (default: `watch.directories`). With a server running
 * on the data folder, the server follows them (until it stops; `watch.directories` keeps them across
 * restarts) and the command returns. Otherwise it watches in-process until SIGINT / SIGTERM: catches
 * up with what changed since the last run, then ingests, renames and deletes as the files change.
 */
export async function watchCommand(config: Config, directories: string[]): Promise<number> {
  const dirs = directories.length > 0 ? directories : config.watch.directories;
  if (dirs.length === 0) throw new ConfigError('usage: dropqa watch <dir>... (or set watch.directories)');
  const data = locateData(config, { create: true });
  if (data.kind === 'server') {
    const { url, token, controlKey } = data.lock;
    const server = new HttpBackend(url, token, controlKey);
    for (const dir of dirs) {
      const folder = await server.watchFolder(resolve(dir));
      process.stdout.write(
        `the server at ${url} now watches ${folder.directory} as ${folder.prefix} (${folder.documents} documents); ` +
          'it follows it until it stops (add the folder to watch.directories to keep it after a restart)\n',
      );
    }
    return 0;
  }
  const [{ logWatchEvent }, { recoverRuntime }, { openRuntime }, { createFolderWatcher }] = await Promise.all(
    [
      import('../../api/serve.ts'),
      import('../../runtime/recover.ts'),
      import('../../runtime/runtime.ts'),
      import('../../watch/index.ts'),
    ],
  );
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
