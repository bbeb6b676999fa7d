import { Hono } from 'hono';
import { DropQAError } from '../../errors.ts';
import { summarize } from '../../qa/summarize/flow.ts';
import { summarizeRequestSchema } from '../../qa/summarize/request.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { sseResponse } from '../sse-stream.ts';
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
    // The first event is read before answering, so that an unknown document is a 404, not a stream.
    const first = await events.next();
    async function* all() {
      if (!first.done) yield first.value;
      yield* events;
    }
    return sseResponse(
      c,
      all(),
      () => void events.return(undefined),
      (error) => {
        const known = error instanceof DropQAError;
        if (!known) console.error('[api] summarize failed:', error);
        const data = known
          ? { code: error.code, message: error.message }
          : {
              code: 'internal_error',
              message: 'The summary could not be written because of an internal error.',
            };
        return { type: 'error', data };
      },
    );
  });
  return app;
}
