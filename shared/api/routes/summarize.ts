import { Hono } from 'hono';
import { assertReadable } from '../../documents/queries.ts';
import { getTopic } from '../../documents/topics.ts';
import { DropQAError } from '../../errors.ts';
import { trackUsage } from '../../llm/usage-tracking.ts';
import { errorFields, log } from '../../log/logger.ts';
import { summarize } from '../../qa/summarize/flow.ts';
import { summarizeRequestSchema } from '../../qa/summarize/request.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { accessOf } from '../access.ts';
import { withAnswerLog } from '../answer-log.ts';
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
    // Only what the asker may read: the flow reads the document or the topic's documents in scope too.
    const access = accessOf(c);
    if (request.document_id) await assertReadable(rt.db, access, request.document_id);
    if (request.topic_id) await getTopic(rt.db, access, request.topic_id);
    const tracked = trackUsage(rt.providers);
    const events = summarize({ db: rt.db, providers: tracked.providers, access }, request);
    // The first event is read before answering, so that an unknown document is a 404, not a stream.
    const first = await events.next();
    async function* all() {
      if (!first.done) yield first.value;
      yield* events;
    }
    return sseResponse(
      c,
      withAnswerLog('summarize', all(), tracked.usage),
      () => void events.return(undefined),
      {
        onError: (error) => {
          const known = error instanceof DropQAError;
          if (!known) log.error('api: summarize failed', errorFields(error, { stack: true }));
          const data = known
            ? { code: error.code, message: error.message }
            : {
                code: 'internal_error',
                message: 'The summary could not be written because of an internal error.',
              };
          return { type: 'error', data };
        },
      },
    );
  });
  return app;
}
