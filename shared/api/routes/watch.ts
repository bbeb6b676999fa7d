import { Hono } from 'hono';
import type { FolderWatcher } from '../../watch/index.ts';

/** `GET /api/watch`: the watched folders with their document counts, what is pending and the last sync. */
export function watchRoutes(watcher: FolderWatcher | undefined): Hono {
  const app = new Hono();
  app.get('/', async (c) =>
    c.json(watcher ? await watcher.status() : { running: false, ready: false, folders: [] }),
  );
  return app;
}
