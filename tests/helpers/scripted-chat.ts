import type { ZodType } from 'zod';
import type { ChatModel, ChatRequest, ChatResult, ChatStreamEvent } from '#shared/llm/types.ts';

/** The text of a request's user messages (text parts only), for matching and assertions. */
export function promptText(request: ChatRequest): string {
  return request.messages
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : m.content
            .map((part) => (part.type === 'text' ? part.text : part.type === 'image' ? `[${part.mime}]` : ''))
            .join('\n'),
    )
    .join('\n');
}

/** Answers a request: text for complete/stream, a JSON-able value for structured. */
export type Script = (request: ChatRequest, kind: 'complete' | 'structured') => unknown;

export interface ScriptedChat extends ChatModel {
  /** Every request, in the order calls started. */
  readonly calls: { request: ChatRequest; kind: 'complete' | 'structured' | 'stream' }[];
  /** The most calls that were in flight at once. */
  readonly maxInFlight: number;
}

/**
 * An in-memory ChatModel for tests and benchmarks: answers with `script`, after `latencyMs`, and
 * records calls and concurrency. Structured answers are validated by the caller's schema, as the
 * real providers do.
 *
 * @example const chat = scriptedChat((req) => `Summary of ${req.role}`, { latencyMs: 50 });
 */
export function scriptedChat(script: Script, options: { latencyMs?: number } = {}): ScriptedChat {
  const calls: ScriptedChat['calls'] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const run = async <T>(request: ChatRequest, kind: 'complete' | 'structured', then: (v: unknown) => T) => {
    calls.push({ request, kind });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      return then(script(request, kind));
    } finally {
      inFlight -= 1;
    }
  };
  const usage = { inputTokens: 10, outputTokens: 5 };
  return {
    provider: 'openai',
    calls,
    get maxInFlight() {
      return maxInFlight;
    },
    complete(request): Promise<ChatResult> {
      return run(request, 'complete', (v) => ({ text: String(v), model: 'scripted', usage }));
    },
    async *stream(request): AsyncIterable<ChatStreamEvent> {
      calls.push({ request, kind: 'stream' });
      yield { type: 'delta', text: String(script(request, 'complete')) };
      yield { type: 'usage', usage, model: 'scripted' };
    },
    structured<T>(request: ChatRequest, schema: ZodType<T>) {
      return run(request, 'structured', (v) => ({ value: schema.parse(v), usage, model: 'scripted' }));
    },
  };
}
