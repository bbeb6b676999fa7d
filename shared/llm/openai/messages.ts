import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { fitImage, type ImageLimits } from '../chat/images.ts';
import type { ChatMessage, StopReason, ToolCall, ToolChoice, ToolSpec } from '../types.ts';

/** What OpenAI-compatible vision endpoints commonly accept: the usual web formats, up to 20 MB. */
export const OPENAI_IMAGE_LIMITS: ImageLimits = {
  maxBytes: 20 * 1024 * 1024,
  maxDimension: 8000,
  mimes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
};

/**
 * Chat Completions messages: the system prompt first, images as data URLs, tool calls on the
 * assistant message and tool results as `tool` messages (which must directly follow it).
 */
export async function toOpenAiMessages(
  system: string | undefined,
  messages: ChatMessage[],
): Promise<ChatCompletionMessageParam[]> {
  const out: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      out.push({ role: message.role, content: message.content });
      continue;
    }
    if (message.role === 'assistant') {
      const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      const calls = message.content.flatMap((p) =>
        p.type === 'tool_use'
          ? [
              {
                id: p.id,
                type: 'function' as const,
                function: { name: p.name, arguments: JSON.stringify(p.input) },
              },
            ]
          : [],
      );
      out.push({ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) });
      continue;
    }
    const parts: ChatCompletionContentPart[] = [];
    for (const part of message.content) {
      if (part.type === 'tool_result') {
        out.push({ role: 'tool', tool_call_id: part.toolUseId, content: part.content });
      } else if (part.type === 'text') {
        parts.push({ type: 'text', text: part.text });
      } else if (part.type === 'image') {
        const fitted = await fitImage(part.bytes, part.mime, OPENAI_IMAGE_LIMITS);
        const url = `data:${fitted.mime};base64,${Buffer.from(fitted.bytes).toString('base64')}`;
        parts.push({ type: 'image_url', image_url: { url } });
      }
    }
    if (parts.length) out.push({ role: 'user', content: parts });
  }
  return out;
}

/** `tools` for the request, or undefined without tools. */
export function toOpenAiTools(tools: ToolSpec[] | undefined): ChatCompletionTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/** `tool_choice` for the request. */
export function toOpenAiToolChoice(
  choice: ToolChoice | undefined,
): ChatCompletionToolChoiceOption | undefined {
  if (!choice) return undefined;
  if (choice === 'auto') return 'auto';
  if (choice === 'any') return 'required';
  return { type: 'function', function: { name: choice.name } };
}

/** Tool calls of a completion; arguments that are not JSON are passed on as the raw string. */
export function readToolCalls(
  calls: Array<{ id: string; type: string; function?: { name: string; arguments: string } }> | undefined,
): ToolCall[] {
  return (calls ?? []).flatMap((call) => {
    if (call.type !== 'function' || !call.function) return [];
    let input: unknown = call.function.arguments;
    try {
      input = JSON.parse(call.function.arguments || '{}');
    } catch {
      // keep the raw string: the caller's validation reports it
    }
    return [{ id: call.id, name: call.function.name, input }];
  });
}

/** The finish reason in the provider-neutral vocabulary. */
export function toStopReason(reason: string | null | undefined): StopReason {
  if (reason === 'stop') return 'end';
  if (reason === 'length') return 'max_tokens';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_use';
  return 'other';
}
