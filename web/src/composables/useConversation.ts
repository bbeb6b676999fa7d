import { reactive, ref } from 'vue';
import { readSse } from '#shared/api/sse-read.ts';
import { api, messageOf } from '../lib/api.ts';
import type { ErrorBody } from '../lib/api-error.ts';
import { requestHeaders, unauthorized } from '../lib/session.ts';
import { applyEvent, newTurn, storedTurn, type Turn } from '../lib/turn.ts';
import type { ConversationDetail } from '../lib/types.ts';

export interface AskOptions {
  question: string;
  mode: string;
  topicIds: string[];
  version?: number;
  showReasoning: boolean;
}

// Kept at module scope so the conversation survives navigating to a cited document and back.
const turns = reactive<Turn[]>([]);
/** The server's conversation the turns belong to (set by the first answer's `meta`). */
const conversationId = ref<string | undefined>();
const busy = ref(false);
let controller: AbortController | undefined;

/**
 * The Q&A conversation: ask (streamed over SSE, continuing the server's conversation so follow-ups
 * are resolved against the earlier turns), stop (aborts the request), start a new conversation,
 * reopen a stored one with its sources, the turns so far.
 */
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
        // The filters as the form shows them: empty ones drop what the conversation carried over.
        topic_filter: options.topicIds,
        version: options.version ?? null,
        ...(conversationId.value ? { conversation_id: conversationId.value } : {}),
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
        const body = (await response.json().catch(() => ({}))) as ErrorBody;
        applyEvent(turn, 'error', {
          ...body.error,
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
        const id = (data as { conversation_id?: unknown }).conversation_id;
        if (frame.event === 'meta' && typeof id === 'string') conversationId.value = id;
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

  /** Starts over: the next question opens a new conversation. */
  function newConversation(): void {
    if (busy.value) return;
    turns.splice(0, turns.length);
    conversationId.value = undefined;
  }

  /** Shows a stored conversation, turns in order with their sources; the next question continues it. */
  async function open(id: string): Promise<ConversationDetail | undefined> {
    if (busy.value) return undefined;
    const detail = await api<ConversationDetail>(`/api/qa/conversations/${encodeURIComponent(id)}`);
    turns.splice(0, turns.length, ...detail.turns.map(storedTurn));
    conversationId.value = detail.id;
    return detail;
  }

  return { turns, busy, conversationId, ask, stop, newConversation, open };
}
