import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { ask } from '../../qa/ask.ts';
import { startTurn } from '../../qa/conversation/start.ts';
import { encodeSse } from '../../qa/events.ts';
import { askRequestSchema } from '../../qa/request.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { ownerOf } from '../owner.ts';
import { parseInput } from '../validate.ts';

/**
 * `POST /api/qa/ask` streams Server-Sent Events (docs/events.md). The turn is opened before the
 * stream, so an unknown conversation is a 404. History: routes/history.ts, conversations:
 * routes/conversations.ts.
 */
export function qaRoutes(rt: Runtime): Hono {
  const app = new Hono();

  app.post('/ask', async (c) => {
    const body = await c.req.json().catch(() => undefined);
    const request = await startTurn(rt.db, parseInput(askRequestSchema, body, 'body'), ownerOf(c));
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

  return app;
}
