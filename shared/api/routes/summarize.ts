import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { DropQAError } from '../../errors.ts';
import { summarize } from '../../qa/summarize/flow.ts';
import { encodeSummarizeEvent, summarizeRequestSchema } from '../../qa/summarize/request.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { parseInput } from '../validate.ts';

/**
 * `POST /api/qa/summarize` {document_id | topic_id, version?}: the summary streamed as Server-Sent
 * Events. An unknown document or topic is a 404 before the stream starts; a failure later is one
 * `error` event.
 */
export function summarizeRoutes(rt: Runtime): Hono {
  const app = new Hono();
  app.post('/summarize', async (c) => {
    const body = await c.req.json().catch(() => undefined);
    const request = parseInput(summarizeRequestSchema, body, 'body');
    const events = summarize({ db: rt.db, providers: rt.providers }, request);
    const first = await events.next();
    c.header('Content-Type', 'text/event-stream; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    c.header('X-Accel-Buffering', 'no');
    return stream(c, async (out) => {
      out.onAbort(() => void events.return(undefined));
      try {
        if (!first.done) await out.write(encodeSummarizeEvent(first.value));
        for await (const event of events) await out.write(encodeSummarizeEvent(event));
      } catch (error) {
        const known = error instanceof DropQAError;
        if (!known) console.error('[api] summarize failed:', error);
        const data = known
          ? { code: error.code, message: error.message }
          : {
              code: 'internal_error',
              message: 'The summary could not be written because of an internal error.',
            };
        await out.write(encodeSummarizeEvent({ type: 'error', data }));
      }
    });
  });
  return app;
}
