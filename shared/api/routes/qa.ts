import { Hono } from 'hono';
import { trackUsage } from '../../llm/usage-tracking.ts';
import { ask } from '../../qa/ask.ts';
import { startTurn } from '../../qa/conversation/start.ts';
import { askRequestSchema } from '../../qa/request.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { accessOf } from '../access.ts';
import { withAnswerLog } from '../answer-log.ts';
import { ownerOf } from '../owner.ts';
import { sseResponse } from '../sse-stream.ts';
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
    const access = accessOf(c);
    const request = await startTurn(rt.db, access, parseInput(askRequestSchema, body, 'body'), ownerOf(c));
    const controller = new AbortController();
    const tracked = trackUsage(rt.qa.providers);
    const events = ask({ ...rt.qa, access, providers: tracked.providers }, request, controller.signal);
    return sseResponse(c, withAnswerLog('ask', events, tracked.usage), () => controller.abort());
  });

  return app;
}
