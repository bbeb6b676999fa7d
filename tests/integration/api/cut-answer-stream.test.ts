import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { loadConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { createConversation, EMPTY_CONVERSATION_TTL_MS } from '#shared/qa/conversation/store.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

/**
 * A client that goes away while its first answer streams leaves a conversation without a turn (the
 * conversation is opened before the stream). Such a conversation is not listed, and is deleted once
 * it has stayed empty for an hour. Before: 408 cut streams left 408 empty conversations in the list.
 */
describe('conversations whose first answer was cut off', () => {
  let dir: string;
  let rt: Runtime;
  let app: Hono;
  /** Holds every embedding (the question's, before retrieval) until released. */
  let release: () => void = () => {};
  let held: () => void = () => {};
  /** Resolves once an embedding is held. */
  const embedding = new Promise<void>((resolve) => {
    held = resolve;
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-cut-stream-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    const embedder = rt.qa.embedder;
    const holding: Embedder = {
      model: embedder.model,
      dimensions: embedder.dimensions,
      async embed(texts, options) {
        await new Promise<void>((resolve) => {
          release = resolve;
          held();
        });
        return embedder.embed(texts, options);
      },
    };
    app = createApp({ ...rt, qa: { ...rt.qa, embedder: holding } });
  });
  afterAll(async () => {
    release();
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = async () =>
    (await (await app.request('/api/qa/conversations')).json()) as { items: unknown[]; total: number };
  const stored = async () =>
    (await queryRows<{ id: string }>(rt.db, sql`SELECT id FROM conversations`)).map((r) => r.id);

  it('does not list a conversation whose first answer stream was aborted', async () => {
    const res = await app.request('/api/qa/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'What is the budget?', mode: 'standard' }),
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^event: meta\ndata: .*"conversation_id":/);
    // The client goes away while the question's embedding is held, before the answer.
    await embedding;
    await reader.cancel();
    release();
    await new Promise((r) => setTimeout(r, 300));

    expect(await stored()).toHaveLength(1);
    expect(await list()).toMatchObject({ items: [], total: 0 });
  });

  it('sweeps conversations left empty for an hour when the owner opens another', async () => {
    const empty = await stored();
    expect(empty).toHaveLength(1);
    const later = new Date(Date.now() + EMPTY_CONVERSATION_TTL_MS + 60_000);
    const fresh = await createConversation(rt.db, null, 'A new question', {}, later);
    expect(await stored()).toEqual([fresh]);
  });
});
