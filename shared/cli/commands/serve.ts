import { resolve } from 'node:path';
import type { Config } from '../../config/index.ts';
import { openDatabase } from '../../db/client.ts';
import { assertNoServer } from '../../runtime/lock.ts';

/** `dropqa serve`: runs until SIGINT / SIGTERM, then closes the database cleanly. */
export async function serveCommand(config: Config): Promise<number> {
  const started = performance.now();
  // The database starts opening (the embedded one in its worker thread) before the server's modules
  // load: each takes about a second of a start, and they run on different cores.
  assertNoServer(resolve(config.dataDir));
  const database = openDatabase(config);
  // Its failure is reported where the runtime awaits it, not as unhandled while modules load.
  database.catch(() => undefined);
  const { startServer } = await import('../../api/serve.ts').catch(async (error) => {
    await database.then((opened) => opened.close()).catch(() => undefined);
    throw error;
  });
  const server = await startServer(config, { database });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `DropQA is serving at ${server.url} (data: ${resolve(config.dataDir)}, ready in ${seconds} s)\n`,
  );
  const stop = async () => {
    process.stdout.write('Stopping...\n');
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}
