import {
  type BedrockRuntimeClient,
  ConverseCommand,
  type ConverseCommandInput,
  ConverseStreamCommand,
} from '@aws-sdk/client-bedrock-runtime';
import type { ZodType } from 'zod';
import { ValidationError } from '#shared/errors.ts';
import { BEDROCK_MAX_IMAGES, countImages, splitByImages } from '../chat/images.ts';
import { repairInstruction, type StructuredAttempt, withRepair } from '../chat/repair.ts';
import { type ChatProviderOptions, type RoleSettings, roleSettings } from '../chat/role-settings.ts';
import { checkOutput, outputSchema, parseJsonText } from '../chat/structured.ts';
import { httpStatusOf } from '../resilience/classify.ts';
import type {
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResult,
  ChatStreamEvent,
  TokenUsage,
  ToolSpec,
} from '../types.ts';
import { readContent, toBedrockMessages, toStopReason, toToolConfig } from './messages.ts';

export interface BedrockChatOptions extends ChatProviderOptions {
  client: BedrockRuntimeClient;
}

/** The tool structured output is forced through. */
const RESPOND = 'respond';

/**
 * Chat through the Bedrock Runtime Converse API: `complete` (Converse, with native tool calling),
 * `stream` (ConverseStream) and `structured` (a forced tool whose input schema is the zod schema).
 * Images travel as bytes, fitted to Bedrock's size limits; a request with more than 20 images is
 * sent as several requests of at most 20 (their answers joined), except for tool calls and
 * structured output, where that is refused.
 */
export class BedrockChat implements ChatModel {
  readonly provider = 'bedrock' as const;
  /** Models found to refuse a forced tool choice. */
  private readonly autoToolChoiceOnly = new Set<string>();

  constructor(private readonly options: BedrockChatOptions) {}

  async complete(request: ChatRequest): Promise<ChatResult> {
    const settings = this.settings(request);
    const groups = request.tools?.length
      ? [this.withinImageLimit(request.messages)]
      : splitByImages(request.messages, BEDROCK_MAX_IMAGES);
    const results: ChatResult[] = [];
    for (const messages of groups) results.push(await this.converse(request, settings, messages));
    if (results.length === 1 && results[0]) return results[0];
    return {
      text: results.map((r) => r.text).join('\n\n'),
      model: settings.model,
      usage: sumUsage(results.map((r) => r.usage)),
      stopReason: results.at(-1)?.stopReason,
    };
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    const settings = this.settings(request);
    const usage: TokenUsage[] = [];
    const groups = splitByImages(request.messages, BEDROCK_MAX_IMAGES);
    for (const [i, messages] of groups.entries()) {
      if (i > 0) yield { type: 'delta', text: '\n\n' };
      const input = await this.input(request, settings, messages);
      const context = { model: settings.model, role: request.role };
      const events = this.options.caller.stream(context, (signal) =>
        this.events(input, request.role, signal),
      );
      for await (const event of events) {
        if (event.type === 'usage') usage.push(event.usage);
        else yield event;
      }
    }
    yield { type: 'usage', usage: sumUsage(usage), model: settings.model };
  }

  async structured<T>(
    request: ChatRequest,
    schema: ZodType<T>,
  ): Promise<{ value: T; usage: TokenUsage; model: string }> {
    const settings = this.settings(request);
    const { jsonSchema, wrapped } = outputSchema(schema);
    const tool: ToolSpec = {
      name: RESPOND,
      description: 'Give the answer in exactly this structure.',
      inputSchema: jsonSchema,
    };
    const attempt = async (messages: ChatMessage[]): Promise<StructuredAttempt<T>> => {
      const result = await this.respond(request, settings, messages, tool);
      const call = result.toolCalls?.find((c) => c.name === RESPOND);
      if (!call) {
        const parsed = parseJsonText(result.text);
        const checked = parsed.ok ? checkOutput(schema, parsed.value, wrapped) : parsed;
        return {
          checked,
          usage: result.usage,
          model: result.model,
          repair: [
            { role: 'assistant', content: result.text || '(no answer)' },
            {
              role: 'user',
              content: repairInstruction(
                `${checked.ok ? '' : checked.problem}; give the answer by calling the ${RESPOND} tool`,
              ),
            },
          ],
        };
      }
      const checked = checkOutput(schema, call.input, wrapped);
      return {
        checked,
        usage: result.usage,
        model: result.model,
        repair: [
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: call.id, name: call.name, input: call.input }],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolUseId: call.id,
                isError: true,
                content: repairInstruction(checked.ok ? '' : checked.problem),
              },
            ],
          },
        ],
      };
    };
    try {
      return await withRepair(this.withinImageLimit(request.messages), attempt);
    } catch (error) {
      throw this.options.caller.failure({ model: settings.model, role: request.role }, error, 0);
    }
  }

  /**
   * One structured-output call: the respond tool forced through `toolChoice` while the model takes
   * that (Claude, Nova); a model that refuses a forced tool choice (a ValidationException naming it)
   * gets the tool with `auto` from then on.
   */
  private async respond(
    request: ChatRequest,
    settings: RoleSettings,
    messages: ChatMessage[],
    tool: ToolSpec,
  ): Promise<ChatResult> {
    const withTool = { ...request, tools: [tool] };
    if (!this.autoToolChoiceOnly.has(settings.model)) {
      try {
        return await this.converse({ ...withTool, toolChoice: { name: RESPOND } }, settings, messages);
      } catch (error) {
        if (!refusesToolChoice(error)) throw error;
        this.autoToolChoiceOnly.add(settings.model);
      }
    }
    const system = [request.system, `Answer by calling the ${RESPOND} tool.`].filter(Boolean).join('\n\n');
    return this.converse({ ...withTool, system, toolChoice: 'auto' }, settings, messages);
  }

  private settings(request: ChatRequest): RoleSettings {
    return roleSettings(this.options.roles, this.options.defaultModel, request.role);
  }

  private withinImageLimit(messages: ChatMessage[]): ChatMessage[] {
    const n = countImages(messages);
    if (n > BEDROCK_MAX_IMAGES) {
      throw new ValidationError(
        `Bedrock takes at most ${BEDROCK_MAX_IMAGES} images in one request with tools or structured output (got ${n})`,
      );
    }
    return messages;
  }

  private async input(
    request: ChatRequest,
    settings: RoleSettings,
    messages: ChatMessage[],
  ): Promise<ConverseCommandInput> {
    return {
      modelId: settings.model,
      messages: await toBedrockMessages(messages),
      system: request.system ? [{ text: request.system }] : undefined,
      inferenceConfig: { maxTokens: settings.maxTokens, temperature: settings.temperature },
      toolConfig: toToolConfig(request.tools, request.toolChoice),
    };
  }

  private async converse(
    request: ChatRequest,
    settings: RoleSettings,
    messages: ChatMessage[],
  ): Promise<ChatResult> {
    const input = await this.input(request, settings, messages);
    const { client, caller, ledger } = this.options;
    const output = await caller.call({ model: settings.model, role: request.role }, (signal) =>
      client.send(new ConverseCommand(input), { abortSignal: signal }),
    );
    const usage = {
      inputTokens: output.usage?.inputTokens ?? 0,
      outputTokens: output.usage?.outputTokens ?? 0,
    };
    ledger?.record(request.role, usage);
    const { text, toolCalls } = readContent(output.output?.message?.content);
    return { text, model: settings.model, usage, toolCalls, stopReason: toStopReason(output.stopReason) };
  }

  private async *events(
    input: ConverseCommandInput,
    role: ChatRequest['role'],
    signal: AbortSignal,
  ): AsyncGenerator<ChatStreamEvent> {
    const { client, ledger } = this.options;
    const output = await client.send(new ConverseStreamCommand(input), { abortSignal: signal });
    const usage = { inputTokens: 0, outputTokens: 0 };
    for await (const event of output.stream ?? []) {
      const text = event.contentBlockDelta?.delta?.text;
      if (text) yield { type: 'delta', text };
      if (event.metadata?.usage) {
        usage.inputTokens = event.metadata.usage.inputTokens ?? 0;
        usage.outputTokens = event.metadata.usage.outputTokens ?? 0;
      }
    }
    ledger?.record(role, usage);
    yield { type: 'usage', usage, model: input.modelId ?? '' };
  }
}

function sumUsage(usages: TokenUsage[]): TokenUsage {
  return usages.reduce(
    (sum, u) => ({
      inputTokens: sum.inputTokens + u.inputTokens,
      outputTokens: sum.outputTokens + u.outputTokens,
    }),
    { inputTokens: 0, outputTokens: 0 },
  );
}

/** A 400 ValidationException about the tool choice: the model takes only `auto`. */
function refusesToolChoice(error: unknown): boolean {
  const cause = (error as { cause?: unknown }).cause ?? error;
  return httpStatusOf(cause) === 400 && /tool_?choice/i.test(String((error as Error).message ?? ''));
}
