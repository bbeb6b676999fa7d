import { Hono } from 'hono';
import { ask } from '../../qa/ask.ts';
import { askRequestSchema } from '../../qa/request.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { sseResponse } from '../sse-stream.ts';
import { parseInput } from '../validate.ts';

/** `POST /api/qa/ask` streams Server-Sent Events (docs/events.md). History: routes/history.ts. */
export function qaRoutes(rt: Runtime): Hono {
  const app = new Hono();

  app.post('/ask', async (c) => {
    const body = await c.req.json().catch(() => undefined);
    const request = parseInput(askRequestSchema, body, 'body');
    const controller = new AbortController();
    return sseResponse(c, ask(rt.qa, request, controller.signal), () => controller.abort());
  });

  return app;
}
