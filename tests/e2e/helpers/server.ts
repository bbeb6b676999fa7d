import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '#shared/api/serve.ts';
import { loadConfig } from '#shared/config/index.ts';

/** The local product (offline providers) on a free loopback port, in a throw-away data folder. */
export async function startTestServer(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'dropqa-e2e-'));
  const server = await startServer(
    loadConfig({
      env: {},
      overrides: { dataDir: join(dir, 'data'), server: { host: '127.0.0.1', port: 0 } },
    }),
  );
  return {
    url: server.url,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
