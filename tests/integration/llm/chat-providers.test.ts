import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ConfigInput } from '#shared/config/index.ts';
import { ProviderError } from '#shared/errors.ts';
import type { ChatModel, ChatStreamEvent, Providers } from '#shared/llm/types.ts';
import type { FakeServer } from '../../fakes/index.ts';
import { FAKE_MODELS, fakeProviders, startFake } from '../../fakes/providers.ts';
import { BEDROCK, OPENAI } from './protocols.ts';

async function png(width: number, height: number): Promise<Uint8Array> {
  const buffer = await sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  return new Uint8Array(buffer);
}

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const verdict = z.object({ sufficient: z.boolean(), reason: z.string() });

describe.each([BEDROCK, OPENAI])('chat model over the $kind protocol', (protocol) => {
  let fake: FakeServer;
  const model = FAKE_MODELS[protocol.kind].chat;

  beforeAll(async () => {
    fake = await startFake(protocol.kind);
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => fake.reset());

  function providers(extra: ConfigInput['providers'] = {}): Providers & { chat: ChatModel } {
    const built = fakeProviders(protocol.kind, fake, extra);
    if (!built.chat) throw new Error('no chat model');
    return built as Providers & { chat: ChatModel };
  }

  it('sends the role settings and the system prompt, and returns text and usage', async () => {
    const { chat, usage } = providers({ roles: { summarize: { temperature: 0.1, maxTokens: 300 } } });
    fake.enqueue('chat', { text: 'A short summary.', usage: { inputTokens: 42, outputTokens: 7 } });
    const result = await chat.complete({
      role: 'summarize',
      system: 'You summarize.',
      messages: [{ role: 'user', content: 'Summarize this.' }],
    });
    expect(result).toMatchObject({
      text: 'A short summary.',
      model,
      usage: { inputTokens: 42, outputTokens: 7 },
    });
    const [request] = fake.recorded(protocol.chatOp);
    expect(request?.model).toBe(model);
    expect(protocol.system(request?.body)).toBe('You summarize.');
    expect(protocol.temperature(request?.body)).toBe(0.1);
    expect(protocol.maxTokens(request?.body)).toBe(300);
    expect(usage?.snapshot()).toEqual({ summarize: { calls: 1, inputTokens: 42, outputTokens: 7 } });
  });

  it("uses the role's own model when the role names one", async () => {
    const { chat } = providers({ roles: { judge: { model: 'judge-model-x' } } });
    await chat.complete({ role: 'judge', messages: [{ role: 'user', content: 'ok?' }] });
    await chat.complete({ role: 'answer', messages: [{ role: 'user', content: 'ok?' }] });
    expect(fake.requests.map((r) => r.model)).toEqual(['judge-model-x', model]);
  });

  it('streams the deltas in order, then one usage event', async () => {
    const { chat, usage } = providers();
    fake.enqueue('chat', {
      text: 'Hello world',
      chunks: ['Hel', 'lo ', 'world'],
      usage: { inputTokens: 9, outputTokens: 3 },
    });
    const events = await collect(
      chat.stream({ role: 'answer', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(events).toEqual([
      { type: 'delta', text: 'Hel' },
      { type: 'delta', text: 'lo ' },
      { type: 'delta', text: 'world' },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 3 }, model },
    ]);
    expect(fake.recorded(protocol.streamOp)).toHaveLength(1);
    expect(usage?.snapshot().answer).toEqual({ calls: 1, inputTokens: 9, outputTokens: 3 });
  });

  it('retries a stream whose first event is a transient error', async () => {
    const { chat } = providers();
    fake.enqueue(
      'chat',
      { text: 'lost', streamError: { type: protocol.streamFault, afterChunks: 0 } },
      { text: 'second try', chunks: ['second ', 'try'] },
    );
    const events = await collect(
      chat.stream({ role: 'answer', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(events.filter((e) => e.type === 'delta').map((e) => e.type === 'delta' && e.text)).toEqual([
      'second ',
      'try',
    ]);
    expect(fake.recorded(protocol.streamOp)).toHaveLength(2);
  });

  it('fails a stream that breaks after text was passed on, without retrying', async () => {
    const { chat } = providers();
    fake.enqueue('chat', {
      text: 'abc',
      chunks: ['a', 'b', 'c'],
      streamError: { type: protocol.streamFault, afterChunks: 1 },
    });
    const seen: string[] = [];
    const run = async () => {
      for await (const event of chat.stream({
        role: 'answer',
        messages: [{ role: 'user', content: 'hi' }],
      })) {
        if (event.type === 'delta') seen.push(event.text);
      }
    };
    await expect(run()).rejects.toThrow(ProviderError);
    expect(seen).toEqual(['a']);
    expect(fake.recorded(protocol.streamOp)).toHaveLength(1);
  });

  it('returns structured output validated by the schema, sending the schema', async () => {
    const { chat } = providers();
    fake.enqueue('chat', protocol.structuredReply({ sufficient: true, reason: 'the budget is stated' }));
    const result = await chat.structured(
      { role: 'judge', messages: [{ role: 'user', content: 'judge' }] },
      verdict,
    );
    expect(result.value).toEqual({ sufficient: true, reason: 'the budget is stated' });
    const schema = protocol.structuredSchema(fake.requests[0]?.body);
    expect(schema).toMatchObject({ type: 'object', required: ['sufficient', 'reason'] });
    expect(Object.keys(schema.properties as object)).toEqual(['sufficient', 'reason']);
  });

  it('repairs invalid structured output once, naming the problem to the model', async () => {
    const { chat } = providers();
    fake.enqueue(
      'chat',
      protocol.structuredReply({ sufficient: 'yes', reason: 'x' }),
      protocol.structuredReply({ sufficient: false, reason: 'missing dates' }),
    );
    const result = await chat.structured(
      { role: 'judge', messages: [{ role: 'user', content: 'judge' }] },
      verdict,
    );
    expect(result.value).toEqual({ sufficient: false, reason: 'missing dates' });
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(fake.requests).toHaveLength(2);
    expect(protocol.lastMessageText(fake.requests[1]?.body)).toContain('sufficient');
  });

  it('fails with a ProviderError naming model and role when the repair is invalid too', async () => {
    const { chat } = providers();
    fake.enqueue(
      'chat',
      protocol.structuredReply({ sufficient: 1 }),
      protocol.structuredReply({ sufficient: 2 }),
    );
    const error = await chat
      .structured({ role: 'judge', messages: [{ role: 'user', content: 'judge' }] }, verdict)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(
      new RegExp(`^${protocol.kind} model ${model} \\(role judge\\) failed`),
    );
    expect((error as Error).message).toContain('sufficient');
  });

  it('attaches images to the user message', async () => {
    const { chat } = providers();
    const image = await png(40, 30);
    await chat.complete({
      role: 'describeImage',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe.' },
            { type: 'image', bytes: image, mime: 'image/png' },
          ],
        },
      ],
    });
    const images = protocol.images(fake.requests[0]?.body);
    expect(images).toHaveLength(1);
    expect(images[0]?.mime).toBe('image/png');
    expect(new Uint8Array(images[0]?.bytes ?? [])).toEqual(image);
  });

  it('downscales an image larger than 8000 px before sending it', async () => {
    const { chat } = providers();
    await chat.complete({
      role: 'describeImage',
      messages: [
        { role: 'user', content: [{ type: 'image', bytes: await png(9000, 40), mime: 'image/png' }] },
      ],
    });
    const [sent] = protocol.images(fake.requests[0]?.body);
    const meta = await sharp(sent?.bytes).metadata();
    expect(meta.width).toBe(8000);
  });

  it('returns native tool calls with their parsed input', async () => {
    const { chat } = providers();
    fake.enqueue('chat', { toolCalls: [{ name: 'search', input: { query: 'budget 2024' }, id: 'call-1' }] });
    const result = await chat.complete({
      role: 'answer',
      messages: [{ role: 'user', content: 'What is the budget?' }],
      tools: [
        {
          name: 'search',
          description: 'Search the documents',
          inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        },
      ],
    });
    expect(result.toolCalls).toEqual([{ id: 'call-1', name: 'search', input: { query: 'budget 2024' } }]);
    expect(result.stopReason).toBe('tool_use');
    expect(protocol.toolNames(fake.requests[0]?.body)).toEqual(['search']);
  });

  it('replays a tool call and its result to continue a tool loop', async () => {
    const { chat } = providers();
    fake.enqueue('chat', { text: 'The budget is 2 million.' });
    const result = await chat.complete({
      role: 'answer',
      messages: [
        { role: 'user', content: 'What is the budget?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call-1', name: 'search', input: { query: 'budget' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: 'call-1', content: '[1] The budget is 2 million.' }],
        },
      ],
      tools: [{ name: 'search', description: 'Search', inputSchema: { type: 'object', properties: {} } }],
    });
    expect(result.text).toBe('The budget is 2 million.');
    const sent = JSON.stringify(fake.requests[0]?.body.messages);
    expect(sent).toContain('call-1');
    expect(sent).toContain('[1] The budget is 2 million.');
  });

  it('retries throttling, 5xx and dropped connections, then succeeds', async () => {
    const { chat } = providers({ chat: { maxRetries: 3 } });
    fake.enqueue(
      'chat',
      { error: protocol.throttle },
      { error: { status: 503, type: 'ServiceUnavailableException' } },
      { reset: true },
      { text: 'finally' },
    );
    const result = await chat.complete({ role: 'answer', messages: [{ role: 'user', content: 'hi' }] });
    expect(result.text).toBe('finally');
    expect(fake.requests).toHaveLength(4);
  });

  it('gives up after maxRetries with an error naming provider, model, role and cause', async () => {
    const { chat } = providers({ chat: { maxRetries: 2 } });
    fake.enqueue(
      'chat',
      { error: protocol.throttle },
      { error: protocol.throttle },
      { error: protocol.throttle },
    );
    const error = await chat
      .complete({ role: 'summarize', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${protocol.kind} model ${model} \\(role summarize\\) failed after 2 retries: .*(Throttling|429)`,
      ),
    );
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a validation error', async () => {
    const { chat } = providers({ chat: { maxRetries: 3 } });
    fake.enqueue('chat', { error: protocol.invalid });
    const error = await chat
      .complete({ role: 'answer', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(/failed: /);
    expect(fake.requests).toHaveLength(1);
  });

  it('times a slow call out and retries it', async () => {
    const { chat } = providers({ chat: { timeoutMs: 100, maxRetries: 1 } });
    fake.enqueue('chat', { text: 'late', delayMs: 400 }, { text: 'on time' });
    const result = await chat.complete({ role: 'answer', messages: [{ role: 'user', content: 'hi' }] });
    expect(result.text).toBe('on time');
    expect(fake.requests).toHaveLength(2);
  });

  it('keeps at most maxConcurrency calls in flight', async () => {
    const { chat } = providers({ chat: { maxConcurrency: 2 } });
    for (let i = 0; i < 6; i++) fake.enqueue('chat', { text: `answer ${i}`, delayMs: 40 });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        chat.complete({ role: 'answer', messages: [{ role: 'user', content: 'hi' }] }),
      ),
    );
    expect(results).toHaveLength(6);
    expect(fake.maxInFlight).toBe(2);
  });
});

describe('bedrock chat model limits', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFake('bedrock');
  });
  afterAll(async () => {
    await fake.stop();
  });

  it('sends more than 20 images as several requests of at most 20', async () => {
    const { chat } = fakeProviders('bedrock', fake);
    const image = await png(8, 8);
    fake.enqueue('chat', { text: 'first part' }, { text: 'second part' });
    const content = [
      { type: 'text' as const, text: 'Describe these.' },
      ...Array.from({ length: 25 }, () => ({ type: 'image' as const, bytes: image, mime: 'image/png' })),
    ];
    const result = await chat?.complete({ role: 'describeImage', messages: [{ role: 'user', content }] });
    expect(fake.requests.map((r) => BEDROCK.images(r.body).length)).toEqual([20, 5]);
    expect(result?.text).toBe('first part\n\nsecond part');
  });
});

describe('bedrock structured output on a model without forced tool choice', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFake('bedrock');
  });
  afterAll(async () => {
    await fake.stop();
  });

  it('offers the respond tool with auto choice after the model refuses a forced one', async () => {
    const { chat } = fakeProviders('bedrock', fake, { chat: { model: 'meta.llama3-1-70b-instruct-v1:0' } });
    const refusal = {
      status: 400,
      type: 'ValidationException',
      message: "This model doesn't support the toolConfig.toolChoice.tool field. Remove it and try again.",
    };
    fake.enqueue(
      'chat',
      { error: refusal },
      BEDROCK.structuredReply({ sufficient: true, reason: 'ok' }),
      BEDROCK.structuredReply({ sufficient: false, reason: 'again' }),
    );
    const request = { role: 'judge' as const, messages: [{ role: 'user' as const, content: 'judge' }] };
    expect((await chat?.structured(request, verdict))?.value).toEqual({ sufficient: true, reason: 'ok' });
    expect((await chat?.structured(request, verdict))?.value).toEqual({ sufficient: false, reason: 'again' });
    expect(fake.requests.map((r) => r.body.toolConfig.toolChoice)).toEqual([
      { tool: { name: 'respond' } },
      { auto: {} },
      { auto: {} },
    ]);
  });
});

describe('openai chat model without json_schema support', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFake('openai', { rejectJsonSchema: true });
  });
  afterAll(async () => {
    await fake.stop();
  });

  it('falls back to JSON asked for in the prompt', async () => {
    const { chat } = fakeProviders('openai', fake);
    fake.enqueue('chat', { text: 'Sure:\n```json\n{"sufficient": true, "reason": "ok"}\n```' });
    const result = await chat?.structured(
      { role: 'judge', messages: [{ role: 'user', content: 'judge' }] },
      verdict,
    );
    expect(result?.value).toEqual({ sufficient: true, reason: 'ok' });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.body.response_format).toBeUndefined();
    expect(OPENAI.system(fake.requests[1]?.body)).toContain('"sufficient"');
  });
});

describe('bedrock chat model with no model configured', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFake('bedrock');
  });
  afterAll(async () => {
    await fake.stop();
  });

  it('calls Claude Haiku 4.5 through the global inference profile (the AWS deployment default)', async () => {
    const { chat, label } = fakeProviders('bedrock', fake, { chat: { model: undefined } });
    await chat?.complete({ role: 'answer', messages: [{ role: 'user', content: 'hi' }] });
    expect(fake.recorded('converse').map((r) => r.model)).toEqual([
      'global.anthropic.claude-haiku-4-5-20251001-v1:0',
    ]);
    expect(label).toMatch(/^bedrock: global\.anthropic\.claude-haiku-4-5-20251001-v1:0 \//);
  });
});
