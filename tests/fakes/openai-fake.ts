import { type FakeResponse, FakeServer, prelude, sendJson } from './http-fake.ts';
import {
  answering,
  defaultChunks,
  fakeVector,
  type OkReply,
  overlapScores,
  type RecordedRequest,
} from './script.ts';

/**
 * A fake OpenAI-compatible server: `POST /v1/chat/completions` (JSON, or Server-Sent Events with
 * `stream: true`, the usage chunk last when `stream_options.include_usage`), `POST /v1/embeddings` and
 * `POST /v1/rerank`.
 * Point the `openai` client at `${url}/v1`. `options.rejectJsonSchema` makes it refuse
 * `response_format: json_schema` with a 400, like servers without structured output.
 */
export function createOpenAiFake(
  options: { rejectJsonSchema?: boolean; dimensions?: number } = {},
): FakeServer {
  return new FakeServer(
    (method, path, body) => {
      if (method !== 'POST') return undefined;
      if (path === '/v1/chat/completions')
        return { operation: body?.stream ? 'chat-stream' : 'chat', model: body?.model };
      if (path === '/v1/embeddings') return { operation: 'embeddings', model: body?.model };
      if (path === '/v1/rerank') return { operation: 'rerank', model: body?.model };
      return undefined;
    },
    async (request, res, fake) => {
      // Refused before a scripted reply is taken, as a server without the feature would.
      if (options.rejectJsonSchema && request.body?.response_format?.type === 'json_schema') {
        sendJson(res, 400, {
          error: { message: 'response_format json_schema is not supported', type: 'invalid_request_error' },
        });
        return;
      }
      const reply = fake.script.next(
        request.operation === 'embeddings' ? 'embed' : request.operation === 'rerank' ? 'rerank' : 'chat',
      );
      if (await prelude(reply, res)) return;
      if (reply && 'error' in reply) {
        sendJson(res, reply.error.status, {
          error: {
            message: reply.error.message ?? `${reply.error.type} (fake)`,
            type: reply.error.type,
            code: null,
          },
        });
        return;
      }
      if (request.operation === 'rerank') sendJson(res, 200, rerank(request, answering(reply)));
      else if (request.operation === 'embeddings')
        embeddings(request, answering(reply), res, options.dimensions ?? 8);
      else if (request.operation === 'chat') sendJson(res, 200, completion(request, answering(reply)));
      else stream(request, answering(reply), res);
    },
  );
}

function usageOf(reply: OkReply) {
  const usage = reply && 'usage' in reply && reply.usage ? reply.usage : { inputTokens: 10, outputTokens: 5 };
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

function completion(request: RecordedRequest, reply: OkReply) {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion', created: 0, model: request.model };
  if (reply && 'toolCalls' in reply) {
    return {
      ...base,
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: reply.toolCalls.map((call, i) => ({
              id: call.id ?? `call_${i}`,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.input) },
            })),
          },
        },
      ],
      usage: usageOf(reply),
    };
  }
  const text = reply && 'text' in reply ? reply.text : 'fake answer';
  const finish = reply && 'stopReason' in reply && reply.stopReason === 'max_tokens' ? 'length' : 'stop';
  return {
    ...base,
    choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', content: text } }],
    usage: usageOf(reply),
  };
}

function stream(request: RecordedRequest, reply: OkReply, res: FakeResponse): void {
  const text = reply && 'text' in reply ? reply.text : 'fake answer';
  const chunks = reply && 'chunks' in reply && reply.chunks ? reply.chunks : defaultChunks(text);
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: request.model };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  const failure = reply && 'streamError' in reply ? reply.streamError : undefined;
  for (const [i, chunk] of chunks.entries()) {
    if (failure?.afterChunks === i) {
      send({ error: { message: failure.message ?? `${failure.type} (fake)`, type: failure.type } });
      res.end();
      return;
    }
    send({ ...base, choices: [{ index: 0, delta: { content: chunk }, finish_reason: null }] });
  }
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  if (request.body?.stream_options?.include_usage) send({ ...base, choices: [], usage: usageOf(reply) });
  res.end('data: [DONE]\n\n');
}

function embeddings(request: RecordedRequest, reply: OkReply, res: FakeResponse, defaultDims: number): void {
  const input: string[] =
    typeof request.body?.input === 'string' ? [request.body.input] : (request.body?.input ?? []);
  const dims: number = request.body?.dimensions ?? defaultDims;
  const vectors = reply && 'vectors' in reply ? reply.vectors : input.map((text) => fakeVector(text, dims));
  sendJson(res, 200, {
    object: 'list',
    model: request.model,
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    usage: { prompt_tokens: input.join(' ').split(/\s+/).filter(Boolean).length, total_tokens: 0 },
  });
}

/** `/v1/rerank` (Jina/vLLM shape): documents scored as scripted or by `overlapScores`, best first, `top_n` kept. */
function rerank(request: RecordedRequest, reply: OkReply) {
  const documents: string[] = request.body?.documents ?? [];
  const scores =
    reply && 'scores' in reply ? reply.scores : overlapScores(String(request.body?.query ?? ''), documents);
  const results = scores
    .map((relevance_score, index) => ({ index, relevance_score }))
    .sort((a, b) => b.relevance_score - a.relevance_score)
    .slice(0, request.body?.top_n ?? documents.length);
  return { model: request.model, results, usage: { total_tokens: documents.length * 10 } };
}
