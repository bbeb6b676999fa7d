import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import type { Config } from '../config/index.ts';
import { ConfigError, reasonOf } from '../errors.ts';
import { readServerLock, removeServerLock, writeServerLock } from '../runtime/lock.ts';
import { openRuntime } from '../runtime/runtime.ts';
import { warmSearchIndex } from '../search/index.ts';
import { createApp } from './app.ts';

const WARM_DELAY_MS = 1000;

/** Starts the local product: database, bucket, pipeline and HTTP app on one port. Resolves once listening. */
export async function startServer(config: Config): Promise<{ url: string; close(): Promise<void> }> {
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const running = readServerLock(dataDir);
  if (running)
    throw new ConfigError(`Another DropQA server (pid ${running.pid}) is using ${dataDir} at ${running.url}`);
  const rt = await openRuntime(config);
  const app = createApp(rt);
  const { host, port } = config.server;
  const server = await new Promise<ReturnType<typeof serve>>((done, fail) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => done(s));
    s.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'EADDRINUSE'
          ? new ConfigError(`Port ${port} is in use (set PORT to another port)`)
          : error,
      ),
    );
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host}:${actualPort}`;
  writeServerLock(dataDir, { pid: process.pid, url });
  // Load the in-memory full-text statistics once the first requests (the page) have been answered:
  // loading blocks the event loop for a moment, and the first question should not wait for it.
  if (config.search.bm25.memoryIndex) {
    setTimeout(() => {
      warmSearchIndex(rt.db).catch((error) =>
        console.error(`[search] warming the index failed: ${reasonOf(error)}`),
      );
    }, WARM_DELAY_MS).unref();
  }
  return {
    url,
    async close() {
      await new Promise<void>((done) => server.close(() => done()));
      await rt.close();
      removeServerLock(dataDir);
    },
  };
}
