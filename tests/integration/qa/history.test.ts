import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { loadConfig } from '#shared/config/index.ts';
import { saveAnswer } from '#shared/qa/history.ts';
import { askRequestSchema } from '#shared/qa/request.ts';
import type { QaResponse } from '#shared/qa/response.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

function response(answer: string, mode: QaResponse['mode']): QaResponse {
  return {
    answer,
    confidence: 'medium',
    sources: [
      {
        citation: 1,
        document_id: '00000000-0000-4000-8000-000000000001',
        document_name: 'plan.md',
        section: 'Budget',
        snippet: 'The budget for 2024 is 2 million dollars.',
        relevance: 0.8,
        node_id: '00000000-0000-4000-8000-000000000002',
        version: 1,
      },
    ],
    identified_topics: [],
    mode,
    requested_mode: mode === 'direct' ? 'auto' : mode,
    provider: 'offline (extractive)',
  };
}

describe('GET /api/qa/history', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;
  let ids: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-history-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    app = createApp(rt);
    ids = [];
    for (const [question, mode] of [
      ['What is the budget?', 'direct'],
      ['预算和负责人？', 'two-stage'],
      ['JOIN的核心功能？', 'documents'],
    ] as const) {
      ids.push(
        await saveAnswer(
          rt.db,
          askRequestSchema.parse({ question }),
          response(`Answer to ${question}`, mode),
        ),
      );
      await new Promise((r) => setTimeout(r, 5));
    }
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists past questions newest first with their answers, modes and sources', async () => {
    const body = (await (await app.request('/api/qa/history?limit=2')).json()) as {
      items: { question: string; mode: string; answer: string; confidence: string; sources: unknown[] }[];
      total: number;
    };
    expect(body.total).toBe(3);
    expect(body.items.map((i) => i.question)).toEqual(['JOIN的核心功能？', '预算和负责人？']);
    expect(body.items[0]).toMatchObject({
      mode: 'documents',
      answer: 'Answer to JOIN的核心功能？',
      confidence: 'medium',
      sources: [expect.objectContaining({ document_name: 'plan.md', section: 'Budget' })],
      response: expect.objectContaining({ provider: 'offline (extractive)' }),
      createdAt: expect.any(String),
    });
  });

  it('filters by mode and pages with offset', async () => {
    const byMode = (await (await app.request('/api/qa/history?mode=two-stage')).json()) as {
      items: { question: string }[];
    };
    expect(byMode.items.map((i) => i.question)).toEqual(['预算和负责人？']);
    const paged = (await (await app.request('/api/qa/history?limit=1&offset=2')).json()) as {
      items: { question: string }[];
    };
    expect(paged.items.map((i) => i.question)).toEqual(['What is the budget?']);
  });

  it('returns one entry with its whole response, 404 for an unknown one and 400 for a bad id', async () => {
    const one = (await (await app.request(`/api/qa/history/${ids[0]}`)).json()) as { response: QaResponse };
    expect(one.response.provider).toBe('offline (extractive)');
    expect((await app.request('/api/qa/history/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await app.request('/api/qa/history/nope')).status).toBe(400);
    expect((await app.request('/api/qa/history?mode=nonsense')).status).toBe(400);
  });
});
