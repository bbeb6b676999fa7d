import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ZodType } from 'zod';
import { repairInstruction, type StructuredAttempt, withRepair } from '../chat/repair.ts';
import { type ChatProviderOptions, type RoleSettings, roleSettings } from '../chat/role-settings.ts';
import { checkOutput, type OutputSchema, outputSchema, parseJsonText } from '../chat/structured.ts';
import { httpStatusOf } from '../resilience/classify.ts';
import type {
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResult,
  ChatStreamEvent,
  TokenUsage,
} from '../types.ts';
import {
  readToolCalls,
  toOpenAiMessages,
  toOpenAiToolChoice,
  toOpenAiTools,
  toStopReason,
} from './messages.ts';

export interface OpenAiChatOptions extends ChatProviderOptions {
  client: OpenAI;
}

/**
 * Chat through any OpenAI-compatible `/v1/chat/completions` endpoint (OpenAI, Ollama, vLLM, ...):
 * completions with native tool calling, SSE streaming with usage, images as data URLs, and
 * structured output through `response_format: json_schema` where the server takes it, else JSON
 * asked for in the prompt; validated by zod either way, with one repair retry.
 */
export class OpenAiChat implements ChatModel {
  readonly provider = 'openai' as const;
  /** Learned on the first structured call: false once the server refused `json_schema`. */
  private jsonSchemaSupported: boolean | undefined;

  constructor(private readonly options: OpenAiChatOptions) {}

  async complete(request: ChatRequest): Promise<ChatResult> {
    return this.completion(request, this.settings(request), request.messages);
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    const settings = this.settings(request);
    const messages = await toOpenAiMessages(request.system, request.messages);
    const { client, caller, ledger } = this.options;
    const context = { model: settings.model, role: request.role };
    const usage = { inputTokens: 0, outputTokens: 0 };
    const events = caller.stream(context, async function* (signal) {
      const stream = await client.chat.completions.create(
        {
          model: settings.model,
          messages,
          temperature: settings.temperature,
          max_tokens: settings.maxTokens,
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal },
      );
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        if (text) yield text;
        if (chunk.usage) {
          usage.inputTokens = chunk.usage.prompt_tokens;
          usage.outputTokens = chunk.usage.completion_tokens;
        }
      }
    });
    for await (const text of events) yield { type: 'delta', text };
    ledger?.record(request.role, usage);
    yield { type: 'usage', usage, model: settings.model };
  }

  async structured<T>(
    request: ChatRequest,
    schema: ZodType<T>,
  ): Promise<{ value: T; usage: TokenUsage; model: string }> {
    const settings = this.settings(request);
    const output = outputSchema(schema);
    const attempt = async (messages: ChatMessage[]): Promise<StructuredAttempt<T>> => {
      const result = await this.structuredCompletion(request, settings, messages, output);
      const parsed = parseJsonText(result.text);
      const checked = parsed.ok ? checkOutput(schema, parsed.value, output.wrapped) : parsed;
      return {
        checked,
        usage: result.usage,
        model: result.model,
        repair: [
          { role: 'assistant', content: result.text || '(no answer)' },
          { role: 'user', content: repairInstruction(checked.ok ? '' : checked.problem) },
        ],
      };
    };
    try {
      return await withRepair(request.messages, attempt);
    } catch (error) {
      throw this.options.caller.failure({ model: settings.model, role: request.role }, error, 0);
    }
  }

  private settings(request: ChatRequest): RoleSettings {
    return roleSettings(this.options.roles, this.options.defaultModel, request.role);
  }

  /** A completion in JSON mode: `json_schema` while the server takes it, else the schema in the prompt. */
  private async structuredCompletion(
    request: ChatRequest,
    settings: RoleSettings,
    messages: ChatMessage[],
    output: OutputSchema,
  ): Promise<ChatResult> {
    if (this.jsonSchemaSupported !== false) {
      try {
        const result = await this.completion(request, settings, messages, {
          type: 'json_schema',
          json_schema: { name: 'respond', schema: output.jsonSchema, strict: false },
        });
        this.jsonSchemaSupported = true;
        return result;
      } catch (error) {
        if (this.jsonSchemaSupported === true || !refusesResponseFormat(error)) throw error;
        this.jsonSchemaSupported = false;
      }
    }
    const instruction = `Reply with only a JSON value (no prose, no code fence) that matches this JSON schema:\n${JSON.stringify(output.jsonSchema)}`;
    const system = request.system ? `${request.system}\n\n${instruction}` : instruction;
    return this.completion({ ...request, system }, settings, messages);
  }

  private async completion(
    request: ChatRequest,
    settings: RoleSettings,
    messages: ChatMessage[],
    responseFormat?: ChatCompletionCreateParamsNonStreaming['response_format'],
  ): Promise<ChatResult> {
    const { client, caller, ledger } = this.options;
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: settings.model,
      messages: await toOpenAiMessages(request.system, messages),
      temperature: settings.temperature,
      max_tokens: settings.maxTokens,
      tools: toOpenAiTools(request.tools),
      tool_choice: request.tools?.length ? toOpenAiToolChoice(request.toolChoice) : undefined,
      response_format: responseFormat,
    };
    const completion = await caller.call({ model: settings.model, role: request.role }, (signal) =>
      client.chat.completions.create(body, { signal }),
    );
    const usage = {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    };
    ledger?.record(request.role, usage);
    const choice = completion.choices[0];
    return {
      text: choice?.message.content ?? '',
      model: settings.model,
      usage,
      toolCalls: readToolCalls(choice?.message.tool_calls),
      stopReason: toStopReason(choice?.finish_reason),
    };
  }
}

/** A 400/422 that names the response format: the server does not do structured output. */
function refusesResponseFormat(error: unknown): boolean {
  const status = httpStatusOf((error as { cause?: unknown }).cause ?? error);
  const text = String((error as Error).message ?? '');
  return (status === 400 || status === 422) && /response_format|json_schema/i.test(text);
}
