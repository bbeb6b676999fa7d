import { reactive, ref } from 'vue';
import { readSse } from '#shared/api/sse-read.ts';
import { messageOf } from '../lib/api.ts';
import { requestHeaders, unauthorized } from '../lib/session.ts';
import { applyEvent, newTurn, type Turn } from '../lib/turn.ts';

export interface AskOptions {
  question: string;
  mode: string;
  topicIds: string[];
  version?: number;
  showReasoning: boolean;
}

// Kept at module scope so the conversation survives navigating to a cited document and back.
const turns = reactive<Turn[]>([]);
const busy = ref(false);
let controller: AbortController | undefined;

/** The Q&A conversation: ask (streamed over SSE), stop (aborts the request), the turns so far. */
export function useConversation() {
  async function ask(options: AskOptions): Promise<void> {
    if (busy.value) return;
    busy.value = true;
    turns.push(newTurn(options.question, options.mode));
    // The reactive proxy, so that every change below repaints.
    const turn = turns[turns.length - 1] as Turn;
    controller = new AbortController();
    try {
      const body = JSON.stringify({
        question: options.question,
        mode: options.mode,
        show_reasoning: options.showReasoning,
        ...(options.topicIds.length > 0 ? { topic_filter: options.topicIds } : {}),
        ...(options.version ? { version: options.version } : {}),
      });
      const response = await fetch('/api/qa/ask', {
        method: 'POST',
        headers: {
          ...(await requestHeaders('POST', body)),
          'Content-Type': 'application/json',
          Accept: 'text/event-stream',
        },
        body,
        signal: controller.signal,
      });
      if (response.status === 401) unauthorized();
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => ({}))) as {
          error?: { code?: string; message?: string };
        };
        applyEvent(turn, 'error', {
          code: body.error?.code ?? 'http_error',
          message: body.error?.message ?? `${response.status} ${response.statusText}`,
        });
        return;
      }
      for await (const frame of readSse(response.body)) {
        let data: unknown;
        try {
          data = JSON.parse(frame.data);
        } catch {
          continue;
        }
        applyEvent(turn, frame.event, data);
      }
      if (turn.state === 'streaming') {
        applyEvent(turn, 'error', {
          code: 'interrupted',
          message: 'The answer stopped before it was finished.',
        });
      }
    } catch (error) {
      if (controller.signal.aborted) turn.state = 'stopped';
      else applyEvent(turn, 'error', { code: 'network', message: messageOf(error) });
    } finally {
      turn.progress = undefined;
      busy.value = false;
      controller = undefined;
    }
  }

  function stop(): void {
    controller?.abort();
  }

  function clear(): void {
    if (!busy.value) turns.splice(0, turns.length);
  }

  return { turns, busy, ask, stop, clear };
}
