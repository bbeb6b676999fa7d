import type {
  StopReason as BedrockStopReason,
  ToolChoice as BedrockToolChoice,
  ContentBlock,
  ImageFormat,
  Message,
  ToolConfiguration,
  ToolUseBlock,
} from '@aws-sdk/client-bedrock-runtime';
import { BEDROCK_IMAGE_LIMITS, fitImage } from '../chat/images.ts';
import type { ChatMessage, ContentPart, StopReason, ToolCall, ToolChoice, ToolSpec } from '../types.ts';

type DocumentType = NonNullable<ToolUseBlock['input']>;

const FORMATS: Record<string, ImageFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** Converse messages: text, images as bytes (fitted to Bedrock's limits), tool calls and results. */
export async function toBedrockMessages(messages: ChatMessage[]): Promise<Message[]> {
  return Promise.all(
    messages.map(async (message) => ({
      role: message.role,
      content:
        typeof message.content === 'string'
          ? [{ text: message.content }]
          : await Promise.all(message.content.map(toBlock)),
    })),
  );
}

async function toBlock(part: ContentPart): Promise<ContentBlock> {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image': {
      const fitted = await fitImage(part.bytes, part.mime, BEDROCK_IMAGE_LIMITS);
      return { image: { format: FORMATS[fitted.mime] ?? 'png', source: { bytes: fitted.bytes } } };
    }
    case 'tool_use':
      return { toolUse: { toolUseId: part.id, name: part.name, input: part.input as DocumentType } };
    case 'tool_result':
      return {
        toolResult: {
          toolUseId: part.toolUseId,
          content: [{ text: part.content }],
          status: part.isError ? 'error' : 'success',
        },
      };
  }
}

/** Converse `toolConfig` for the request's tools, or undefined without tools. */
export function toToolConfig(
  tools: ToolSpec[] | undefined,
  choice: ToolChoice | undefined,
): ToolConfiguration | undefined {
  if (!tools?.length) return undefined;
  return {
    tools: tools.map((tool) => ({
      toolSpec: {
        name: tool.name,
        description: tool.description,
        inputSchema: { json: tool.inputSchema as DocumentType },
      },
    })),
    toolChoice: toToolChoice(choice),
  };
}

function toToolChoice(choice: ToolChoice | undefined): BedrockToolChoice | undefined {
  if (!choice) return undefined;
  if (choice === 'auto') return { auto: {} };
  if (choice === 'any') return { any: {} };
  return { tool: { name: choice.name } };
}

/** Text and tool calls of a Converse output message. */
export function readContent(content: ContentBlock[] | undefined): { text: string; toolCalls: ToolCall[] } {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of content ?? []) {
    if (block.text !== undefined) text += block.text;
    else if (block.toolUse) {
      toolCalls.push({
        id: block.toolUse.toolUseId ?? '',
        name: block.toolUse.name ?? '',
        input: block.toolUse.input,
      });
    }
  }
  return { text, toolCalls };
}

/** Bedrock's stop reason in the provider-neutral vocabulary. */
export function toStopReason(reason: BedrockStopReason | string | undefined): StopReason {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'end';
  if (reason === 'max_tokens') return 'max_tokens';
  if (reason === 'tool_use') return 'tool_use';
  return 'other';
}
