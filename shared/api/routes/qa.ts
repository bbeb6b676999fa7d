import { desc } from 'drizzle-orm';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { z } from 'zod';
import { schema } from '../../db/index.ts';
import { ask } from '../../qa/ask.ts';
import { encodeSse } from '../../qa/events.ts';
import { askRequestSchema } from '../../qa/request.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { parseInput } from '../validate.ts';

const historyQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) });

/** `POST /api/qa/ask` streams Server-Sent Events (docs/events.md); `GET /api/qa/history`. */
export function qaRoutes(rt: Runtime): Hono {
  const app = new Hono();

  app.post('/ask', async (c) => {
    const body = await c.req.json().catch(() => undefined);
    const request = parseInput(askRequestSchema, body, 'body');
    const controller = new AbortController();
    c.header('Content-Type', 'text/event-stream; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    c.header('X-Accel-Buffering', 'no');
    return stream(c, async (out) => {
      out.onAbort(() => controller.abort());
      for await (const event of ask(rt.qa, request, controller.signal)) {
        await out.write(encodeSse(event));
      }
    });
  });

  app.get('/history', async (c) => {
    const { limit } = parseInput(historyQuery, c.req.query(), 'query');
    const rows = await rt.db
      .select()
      .from(schema.qaHistory)
      .orderBy(desc(schema.qaHistory.createdAt))
      .limit(limit);
    return c.json({ items: rows });
  });

  return app;
}
