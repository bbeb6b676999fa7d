import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { ConfigError, ValidationError } from '../../errors.ts';
import { CONTROL_HEADER } from '../../runtime/lock.ts';
import type { FolderWatcher } from '../../watch/index.ts';
import { parseInput } from '../validate.ts';

const addBody = z.object({ directory: z.string().min(1) });

function sameKey(sent: string | undefined, key: string): boolean {
  const a = Buffer.from(sent ?? '');
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /api/watch`: the watched folders with their document counts, what is pending and the last
 * sync. `POST /api/watch` `{ directory }` (an absolute path on the server's machine): follows one
 * more folder until the server stops; only with the control key of the server's lock file, since it
 * makes the server read that folder's files.
 */
export function watchRoutes(watcher: FolderWatcher | undefined, controlKey?: string): Hono {
  const app = new Hono();
  app.get('/', async (c) =>
    c.json(watcher ? await watcher.status() : { running: false, ready: false, folders: [] }),
  );
  app.post('/', async (c) => {
    // The body is read first: a connection answered before its body is read is reset.
    const { directory } = parseInput(addBody, await c.req.json().catch(() => undefined), 'body');
    if (!watcher || !controlKey || !sameKey(c.req.header(CONTROL_HEADER), controlKey)) {
      throw new HTTPException(403, {
        message: 'Adding a watched folder needs the control key of the server lock (dropqa watch does this)',
      });
    }
    try {
      return c.json(await watcher.add(directory));
    } catch (error) {
      if (error instanceof ConfigError) throw new ValidationError(error.message);
      throw error;
    }
  });
  return app;
}
