import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { parseSse } from '#shared/cli/http-backend.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { QaEvent } from '#shared/qa/events.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { lambdaApp } from '../../../functions/ask/app.ts';
import { InvalidTokenError } from '../../../functions/ask/cognito-token.ts';
import { TOKEN_HEADER } from '../../../functions/ask/require-user.ts';

type Headers = Record<string, string>;

async function askEvents(
  app: { request: Hono['request'] },
  body: unknown,
  headers: Headers = {},
): Promise<QaEvent[]> {
  const res = await app.request('/api/qa/ask', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  const events: QaEvent[] = [];
  for await (const event of parseSse(res.body as ReadableStream<Uint8Array>)) events.push(event);
  return events;
}

function conversationOf(events: QaEvent[]): string {
  const meta = events[0];
  if (meta?.type !== 'meta' || !meta.data.conversation_id) throw new Error('no conversation in meta');
  return meta.data.conversation_id;
}

async function json<T>(res: Response | Promise<Response>): Promise<{ status: number; body: T }> {
  const r = await res;
  return { status: r.status, body: (await r.json()) as T };
}

describe('conversations over HTTP', () => {
  let dir: string;
  let rt: Runtime;
  let app: Hono;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-conversations-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    app = createApp(rt);
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a conversation, continues it, lists, reads and deletes it', async () => {
    const first = await askEvents(app, { question: 'Who leads Project Orion?' });
    const id = conversationOf(first);
    const second = await askEvents(app, { question: 'And its budget?', conversation_id: id });
    expect(conversationOf(second)).toBe(id);
    expect(second[1]).toMatchObject({ type: 'rewrite', data: { from_turns: [1] } });

    const list = await json<{ items: { id: string; title: string; turns: number; updated_at: string }[] }>(
      app.request('/api/qa/conversations'),
    );
    expect(list.body.items[0]).toMatchObject({ id, title: 'Who leads Project Orion?', turns: 2 });
    expect(Date.parse(list.body.items[0]?.updated_at ?? '')).not.toBeNaN();

    const read = await json<{
      turns: { question: string; mode: string; answer: string; sources: unknown[] }[];
    }>(app.request(`/api/qa/conversations/${id}`));
    expect(read.body.turns.map((t) => t.question)).toEqual(['Who leads Project Orion?', 'And its budget?']);
    expect(read.body.turns[1]).toMatchObject({
      mode: expect.any(String),
      answer: expect.any(String),
      sources: expect.any(Array),
      response: expect.objectContaining({ rewrite: expect.objectContaining({ from_turns: [1] }) }),
    });

    expect((await app.request(`/api/qa/conversations/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await app.request(`/api/qa/conversations/${id}`)).status).toBe(404);
    const history = await json<{ items: { conversationId: string }[] }>(app.request('/api/qa/history'));
    expect(history.body.items.filter((i) => i.conversationId === id)).toEqual([]);
  });

  it.each([
    [
      'more than 20 turns of history',
      { question: 'And then?', history: Array.from({ length: 21 }, () => ({ question: 'q', answer: 'a' })) },
      /body\.history: history holds at most 20 turns/,
    ],
    [
      'a history turn without a question',
      { question: 'And then?', history: [{ question: ' ', answer: 'a' }] },
      /body\.history\.0\.question: question must not be empty/,
    ],
    [
      'a history turn without an answer',
      { question: 'And then?', history: [{ question: 'Who leads it?' }] },
      /body\.history\.0\.answer/,
    ],
    [
      'both a conversation and a history',
      {
        question: 'And then?',
        conversation_id: '00000000-0000-4000-8000-000000000001',
        history: [{ question: 'q', answer: 'a' }],
      },
      /either conversation_id .* or history/,
    ],
    [
      'a conversation id that is not a uuid',
      { question: 'And then?', conversation_id: '42' },
      /conversation_id/,
    ],
  ])('refuses %s with a 400 naming the field', async (_, body, message) => {
    const res = await json<{ error: { code: string; message: string } }>(
      app.request('/api/qa/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toMatch(message);
  });

  it('answers a conversation that does not exist with a 404 before streaming', async () => {
    const res = await app.request('/api/qa/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        question: 'And then?',
        conversation_id: '00000000-0000-4000-8000-000000000009',
      }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('answers with the history a stateless caller sends', async () => {
    const events = await askEvents(app, {
      question: 'And its budget?',
      history: [{ question: 'Who leads Project Orion?', answer: 'Maria Chen leads Project Orion.' }],
    });
    expect(events[1]).toMatchObject({
      type: 'rewrite',
      data: { standalone_question: expect.stringMatching(/project orion/i), from_turns: [1] },
    });
  });

  describe('in the Lambda app', () => {
    const USERS: Record<string, string> = { 'token-alice': 'alice-sub', 'token-bob': 'bob-sub' };
    let lambda: ReturnType<typeof lambdaApp>;
    const as = (user: 'alice' | 'bob'): Headers => ({ [TOKEN_HEADER]: `token-${user}` });
    let aliceConversation: string;
    let aliceEntry: string;

    beforeAll(async () => {
      lambda = lambdaApp(
        rt,
        async (token) => {
          const sub = USERS[token];
          if (!sub) throw new InvalidTokenError('unknown token');
          return { sub, token_use: 'id', 'cognito:groups': ['admin'] };
        },
        {},
      );
      const events = await askEvents(
        lambda,
        { question: 'What is the secret budget of Alice?' },
        as('alice'),
      );
      aliceConversation = conversationOf(events);
      const done = events.at(-1);
      aliceEntry = done?.type === 'done' ? (done.data.response.history_id ?? '') : '';
    });

    it("lists and reads the user's own conversations", async () => {
      const list = await json<{ items: { id: string }[] }>(
        lambda.request('/api/qa/conversations', { headers: as('alice') }),
      );
      expect(list.body.items.map((i) => i.id)).toEqual([aliceConversation]);
      const read = await lambda.request(`/api/qa/conversations/${aliceConversation}`, {
        headers: as('alice'),
      });
      expect(read.status).toBe(200);
    });

    it("neither lists nor reads, continues or deletes another user's conversation", async () => {
      const list = await json<{ items: unknown[]; total: number }>(
        lambda.request('/api/qa/conversations', { headers: as('bob') }),
      );
      expect(list.body).toMatchObject({ items: [], total: 0 });
      const path = `/api/qa/conversations/${aliceConversation}`;
      expect((await lambda.request(path, { headers: as('bob') })).status).toBe(404);
      expect((await lambda.request(path, { method: 'DELETE', headers: as('bob') })).status).toBe(404);
      const ask = await lambda.request('/api/qa/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...as('bob') },
        body: JSON.stringify({ question: 'And then?', conversation_id: aliceConversation }),
      });
      expect(ask.status).toBe(404);
      expect((await lambda.request(path, { headers: as('alice') })).status).toBe(200);
    });

    it("keeps another user's questions out of the history", async () => {
      const history = await json<{ items: { question: string }[] }>(
        lambda.request('/api/qa/history', { headers: as('bob') }),
      );
      expect(history.body.items.map((i) => i.question)).not.toContain('What is the secret budget of Alice?');
      expect((await lambda.request(`/api/qa/history/${aliceEntry}`, { headers: as('bob') })).status).toBe(
        404,
      );
      expect((await lambda.request(`/api/qa/history/${aliceEntry}`, { headers: as('alice') })).status).toBe(
        200,
      );
    });

    it('refuses the conversation routes without a token', async () => {
      expect((await lambda.request('/api/qa/conversations')).status).toBe(401);
    });
  });
});
