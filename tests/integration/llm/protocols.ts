import type { FakeReply, RecordedRequest } from '../../fakes/index.ts';
import type { FakeProviderKind } from '../../fakes/providers.ts';

type Body = RecordedRequest['body'];

/** How each wire protocol carries what the shared chat tests assert. */
export interface Protocol {
  kind: FakeProviderKind;
  chatOp: string;
  streamOp: string;
  system(body: Body): string | undefined;
  temperature(body: Body): number;
  maxTokens(body: Body): number;
  images(body: Body): Array<{ mime: string; bytes: Buffer }>;
  /** The JSON schema structured output was requested with. */
  structuredSchema(body: Body): Record<string, unknown>;
  toolNames(body: Body): string[];
  /** A scripted reply carrying `value` as the structured answer. */
  structuredReply(value: unknown): FakeReply;
  /** The text of the last message sent (where a repair request lands). */
  lastMessageText(body: Body): string;
  /** Status and error name of throttling and of a validation error. */
  throttle: { status: number; type: string };
  invalid: { status: number; type: string };
  /** A transient error as an event inside a stream. */
  streamFault: string;
}

export const BEDROCK: Protocol = {
  kind: 'bedrock',
  chatOp: 'converse',
  streamOp: 'converse-stream',
  system: (b) => b.system?.[0]?.text,
  temperature: (b) => b.inferenceConfig.temperature,
  maxTokens: (b) => b.inferenceConfig.maxTokens,
  images: (b) =>
    b.messages
      .flatMap((m: Body) => m.content)
      .filter((c: Body) => c.image)
      .map((c: Body) => ({
        mime: `image/${c.image.format}`,
        bytes: Buffer.from(c.image.source.bytes, 'base64'),
      })),
  structuredSchema: (b) => b.toolConfig.tools[0].toolSpec.inputSchema.json,
  toolNames: (b) => b.toolConfig.tools.map((t: Body) => t.toolSpec.name),
  structuredReply: (value) => ({ toolCalls: [{ name: 'respond', input: value }] }),
  lastMessageText: (b) => JSON.stringify(b.messages.at(-1).content),
  throttle: { status: 429, type: 'ThrottlingException' },
  invalid: { status: 400, type: 'ValidationException' },
  streamFault: 'throttlingException',
};

export const OPENAI: Protocol = {
  kind: 'openai',
  chatOp: 'chat',
  streamOp: 'chat-stream',
  system: (b) => b.messages.find((m: Body) => m.role === 'system')?.content,
  temperature: (b) => b.temperature,
  maxTokens: (b) => b.max_tokens,
  images: (b) =>
    b.messages
      .flatMap((m: Body) => (Array.isArray(m.content) ? m.content : []))
      .filter((c: Body) => c.type === 'image_url')
      .map((c: Body) => {
        const [, mime = '', data = ''] = /^data:([^;]+);base64,(.*)$/.exec(c.image_url.url) ?? [];
        return { mime, bytes: Buffer.from(data, 'base64') };
      }),
  structuredSchema: (b) => b.response_format.json_schema.schema,
  toolNames: (b) => b.tools.map((t: Body) => t.function.name),
  structuredReply: (value) => ({ text: JSON.stringify(value) }),
  lastMessageText: (b) => JSON.stringify(b.messages.at(-1).content),
  throttle: { status: 429, type: 'rate_limit_exceeded' },
  invalid: { status: 400, type: 'invalid_request_error' },
  streamFault: 'server_error',
};
