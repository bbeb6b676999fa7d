import { EventStreamCodec } from '@smithy/eventstream-codec';
import { type FakeResponse, FakeServer, prelude, sendJson } from './http-fake.ts';
import {
  answering,
  defaultChunks,
  fakeVector,
  type OkReply,
  overlapScores,
  type RecordedRequest,
} from './script.ts';

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/**
 * A fake Bedrock Runtime (and the Agents runtime's Rerank, `POST /rerank`): Converse (`POST /model/{id}/converse`), ConverseStream
 * (`/converse-stream`, answered as `application/vnd.amazon.eventstream` frames) and InvokeModel
 * (`/invoke`) for Titan v2 and Cohere embeddings. Point a BedrockRuntimeClient at `url` with
 * static credentials.
 *
 * @example
 * const fake = createBedrockFake(); await fake.start();
 * fake.enqueue('chat', { error: { status: 429, type: 'ThrottlingException' } }, { text: 'hi' });
 */
export function createBedrockFake(): FakeServer {
  return new FakeServer(
    (method, path, body) => {
      if (method === 'POST' && path === '/rerank') {
        const model =
          body?.rerankingConfiguration?.bedrockRerankingConfiguration?.modelConfiguration?.modelArn;
        return { model: String(model), operation: 'rerank' };
      }
      const match = /^\/model\/([^/]+)\/(converse|converse-stream|invoke)$/.exec(path);
      if (method !== 'POST' || !match?.[1] || !match[2]) return undefined;
      return { model: match[1], operation: match[2] };
    },
    async (request, res, fake) => {
      const operation =
        request.operation === 'invoke' ? 'embed' : request.operation === 'rerank' ? 'rerank' : 'chat';
      const reply = fake.script.next(operation);
      if (await prelude(reply, res)) return;
      if (reply && 'error' in reply) {
        sendJson(
          res,
          reply.error.status,
          { message: reply.error.message ?? `${reply.error.type} (fake)` },
          { 'x-amzn-errortype': reply.error.type },
        );
        return;
      }
      if (request.operation === 'rerank') sendJson(res, 200, rerank(request, answering(reply)));
      else if (request.operation === 'invoke') invoke(request, answering(reply), res);
      else if (request.operation === 'converse') sendJson(res, 200, converse(answering(reply)));
      else stream(answering(reply), res);
    },
    { http2: true },
  );
}

function usageOf(reply: OkReply) {
  const usage = reply && 'usage' in reply && reply.usage ? reply.usage : { inputTokens: 10, outputTokens: 5 };
  return { ...usage, totalTokens: usage.inputTokens + usage.outputTokens };
}

function converse(reply: OkReply) {
  if (reply && 'toolCalls' in reply) {
    return {
      output: {
        message: {
          role: 'assistant',
          content: reply.toolCalls.map((call, i) => ({
            toolUse: { toolUseId: call.id ?? `tooluse_${i}`, name: call.name, input: call.input },
          })),
        },
      },
      stopReason: 'tool_use',
      usage: usageOf(reply),
      metrics: { latencyMs: 1 },
    };
  }
  const text = reply && 'text' in reply ? reply.text : 'fake answer';
  const stopReason =
    reply && 'stopReason' in reply && reply.stopReason === 'max_tokens' ? 'max_tokens' : 'end_turn';
  return {
    output: { message: { role: 'assistant', content: [{ text }] } },
    stopReason,
    usage: usageOf(reply),
    metrics: { latencyMs: 1 },
  };
}

function frame(eventType: string, body: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: new TextEncoder().encode(JSON.stringify(body)),
  });
}

/** An exception inside the event stream (`:message-type: exception`), as Bedrock sends mid-stream. */
function exceptionFrame(type: string, message = `${type} (fake)`): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: new TextEncoder().encode(JSON.stringify({ message })),
  });
}

function stream(reply: OkReply, res: FakeResponse): void {
  const text = reply && 'text' in reply ? reply.text : 'fake answer';
  const chunks = reply && 'chunks' in reply && reply.chunks ? reply.chunks : defaultChunks(text);
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
  res.write(frame('messageStart', { role: 'assistant' }));
  const failure = reply && 'streamError' in reply ? reply.streamError : undefined;
  for (const [i, chunk] of chunks.entries()) {
    if (failure?.afterChunks === i) {
      res.end(exceptionFrame(failure.type, failure.message));
      return;
    }
    res.write(frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: chunk } }));
  }
  res.write(frame('contentBlockStop', { contentBlockIndex: 0 }));
  res.write(frame('messageStop', { stopReason: 'end_turn' }));
  res.end(frame('metadata', { usage: usageOf(reply), metrics: { latencyMs: 1 } }));
}

function invoke(request: RecordedRequest, reply: OkReply, res: FakeResponse): void {
  const vectors = reply && 'vectors' in reply ? reply.vectors : undefined;
  if (request.model.startsWith('cohere.')) {
    const texts: string[] = request.body?.texts ?? [];
    sendJson(res, 200, {
      id: 'fake',
      response_type: 'embeddings_floats',
      texts,
      embeddings: vectors ?? texts.map((t) => fakeVector(t, 1024)),
    });
    return;
  }
  const text: string = request.body?.inputText ?? '';
  sendJson(res, 200, {
    embedding: vectors?.[0] ?? fakeVector(text, request.body?.dimensions ?? 1024),
    inputTextTokenCount: text.split(/\s+/).filter(Boolean).length,
  });
}

/** Bedrock Agents runtime `POST /rerank`: inline text sources scored as scripted or by `overlapScores`, best first. */
function rerank(request: RecordedRequest, reply: OkReply) {
  const body = request.body ?? {};
  const query = String(body.queries?.[0]?.textQuery?.text ?? '');
  const texts: string[] = (body.sources ?? []).map(
    (s: { inlineDocumentSource?: { textDocument?: { text?: string } } }) =>
      s.inlineDocumentSource?.textDocument?.text ?? '',
  );
  const wanted = body.rerankingConfiguration?.bedrockRerankingConfiguration?.numberOfResults ?? texts.length;
  const results = (reply && 'scores' in reply ? reply.scores : overlapScores(query, texts))
    .map((relevanceScore, index) => ({ index, relevanceScore }))
    .sort((a, b) => b.relevanceScore - a.relevanceScore)
    .slice(0, wanted);
  return { results };
}
