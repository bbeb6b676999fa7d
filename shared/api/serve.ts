import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { errorFields, log } from '#shared/log/logger.ts';
import type { Config } from '../config/index.ts';
import { watchVanishedObjects } from '../documents/index.ts';
import { ConfigError } from '../errors.ts';
import { assertNoServer, removeServerLock, writeServerLock } from '../runtime/lock.ts';
import { requeueDivergedObjects } from '../runtime/recover.ts';
import { openRuntime, type RuntimeOptions } from '../runtime/runtime.ts';
import { warmSearchIndexInBackground } from '../search/index.ts';
import { clearStaging, stagingDir } from '../storage/staging.ts';
import { createFolderWatcher, type WatchEvent, watchedFolders } from '../watch/index.ts';
import { createApp } from './app.ts';
import { answerClientErrors } from './client-errors.ts';
import { allowedHosts, isLoopback } from './request-guard.ts';

const WARM_DELAY_MS = 1000;

/**
 * Starts the local product: database, bucket, pipeline and HTTP app on one port. Resolves once
 * listening. `options.database`: the database already opening (`dropqa serve` starts it first).
 */
export async function startServer(
  config: Config,
  options: RuntimeOptions = {},
): Promise<{ url: string; token?: string; close(): Promise<void> }> {
  const started = new Date();
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  assertNoServer(dataDir);
  // A missing or clashing watched folder fails the start before anything is opened.
  watchedFolders(config.watch.directories);
  // Uploads a stopped server was receiving: this server alone stages under the data folder (lock).
  await clearStaging(stagingDir(dataDir));
  const rt = await openRuntime(config, options);
  // Crash recovery before any new work: what a stopped process left is resumed or marked failed.
  // Stored objects that differ from the database are queued once listening (`requeueDivergedObjects`).
  const { resumed, requeued, failed } = await rt.ingest.recover();
  if (resumed.length + requeued.length + failed.length > 0) {
    log.info('ingest: recovered interrupted work', {
      resumed: resumed.length,
      requeued: requeued.length,
      markedFailed: failed.length,
    });
  }
  // Folders named by watch.directories are followed (local files only; the AWS deployment has S3 events),
  // and so are those `dropqa watch` adds while the server runs.
  const watcher = createFolderWatcher(rt, config.watch, logWatchEvent);
  // Adding a folder makes the server read files: only a process that can read the lock file (the
  // data folder's owner) holds this key.
  const controlKey = randomBytes(24).toString('base64url');
  const { host, port } = config.server;
  const exposed = !isLoopback(host);
  // Reachable from other machines: nothing is answered without the token (generated unless configured).
  const token = config.server.token ?? (exposed ? randomBytes(24).toString('base64url') : undefined);
  const app = createApp(rt, {
    watcher,
    controlKey,
    guard: { hosts: allowedHosts(host, config.server.allowedHosts), token },
  });
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
  answerClientErrors(server as Server);
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host}:${actualPort}`;
  writeServerLock(dataDir, { pid: process.pid, url, controlKey, ...(token ? { token } : {}) });
  if (exposed) {
    const links = reachableUrls(host, actualPort).map((u) => `  ${u}/?token=${token}`);
    console.error(
      `[serve] WARNING: listening on ${host}, reachable from other machines. Every request needs the access token` +
        `${config.server.token ? ' (server.token)' : ' generated for this run (set server.token to keep one)'}; open:\n${links.join('\n')}`,
    );
  }
  // Load the in-memory full-text statistics once the first requests (the page) have been answered:
  // loading blocks the event loop for a moment, and the first question should not wait for it.
  if (config.search.bm25.memoryIndex) {
    setTimeout(() => warmSearchIndexInBackground(rt.db), WARM_DELAY_MS).unref();
  }
  // The local equivalent of S3's "Object Deleted" events (in AWS the event handler deletes).
  const stopWatching =
    config.storage.kind === 'local'
      ? watchVanishedObjects(rt.db, rt.store, {
          intervalMs: config.lifecycle.scanIntervalMs,
          onRemoved: (keys) =>
            log.info('ingest: removed from the bucket, deleted', { keys: keys.join(', ') }),
          onError: (error) => log.error('ingest: bucket scan failed', errorFields(error)),
        })
      : () => {};
  // Started once listening: the catch-up on a large folder must not delay the page.
  watcher.start().catch((error) => log.error('watch: could not start', errorFields(error)));
  // Once listening too: a stat of every document's object (~1 s at 10,000). Uploads arriving
  // meanwhile write after `started`, so they are not taken for objects a stopped process left.
  const storedObjectsChecked = requeueDivergedObjects(rt, { writtenBefore: started }).then(
    (diverged) => {
      if (diverged.length === 0) return;
      log.info('ingest: recovered interrupted work', {
        storedObjectsDiffering: diverged.length,
        differingKeys: diverged.map((d) => d.key).join(', '),
      });
    },
    (error) => log.error('ingest: stored-objects check failed', errorFields(error)),
  );
  return {
    url,
    ...(token ? { token } : {}),
    async close() {
      stopWatching();
      await storedObjectsChecked;
      await watcher.close();
      await new Promise<void>((done) => server.close(() => done()));
      await rt.close();
      removeServerLock(dataDir);
    },
  };
}

/** One log line per change a watched folder brought. */
export function logWatchEvent(event: WatchEvent): void {
  const fields = {
    key: event.key,
    fromKey: event.fromKey,
    documentId: event.documentId,
    version: event.version,
  };
  if (event.action === 'failed') log.warn('watch: failed', { ...fields, reason: event.error });
  else log.info(`watch: ${event.action}`, fields);
}

/** The URLs other machines reach the server at: the bound address, or every non-internal one for 0.0.0.0 / ::. */
function reachableUrls(host: string, port: number): string[] {
  const names =
    host === '0.0.0.0' || host === '::'
      ? allowedHosts(host).filter((h) => !isLoopback(h) && h !== '[::1]')
      : [host];
  return names.map(
    (name) => `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`,
  );
}
