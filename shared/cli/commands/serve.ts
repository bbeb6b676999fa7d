import { resolve } from 'node:path';
import { startServer } from '../../api/serve.ts';
import type { Config } from '../../config/index.ts';

/** `dropqa serve`: runs until SIGINT / SIGTERM, then closes the database cleanly. */
export async function serveCommand(config: Config): Promise<number> {
  const started = performance.now();
  const server = await startServer(config);
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
