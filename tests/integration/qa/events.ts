import type { QaEvent } from '#shared/qa/events.ts';
import type { QaResponse } from '#shared/qa/response.ts';

/** Every event of a stream, in order. */
export async function collect(events: AsyncIterable<QaEvent>): Promise<QaEvent[]> {
  const out: QaEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The response of the stream's final `done` event; throws with the last event when it ended otherwise. */
export function done(events: QaEvent[]): QaResponse {
  const last = events.at(-1);
  if (last?.type !== 'done')
    throw new Error(`stream ended with ${last?.type}: ${JSON.stringify(last?.data)}`);
  return last.data.response;
}
