import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#shared/config/index.ts';
import type { BeirSet } from '../../../bench/eval/beir.ts';
import { RERANKED, runEval } from '../../../bench/eval/run.ts';
import { createOpenAiFake } from '../../fakes/index.ts';

/**
 * `npm run eval` with a reranker configured (issue 29: what a reranker adds is measured and shown):
 * the harness measures the QA flows' retrieval (hybrid, its top reranked) as a row of its own beside
 * the kinds without it, through the real client and the wire-level fake (`/v1/rerank`, scoring by
 * word overlap), and names the models the numbers are of. A long page repeating the question's
 * rare word is BM25's first; the page holding every word of the question is the reranker's.
 */
const SET: BeirSet = {
  name: 'rerank-mini',
  documents: [
    { id: 'answer', title: 'Note one', text: 'Zephyr budget approved.' },
    { id: 'repeat', title: 'Note two', text: 'Zephyr zephyr zephyr zephyr zephyr zephyr zephyr zephyr.' },
    ...Array.from({ length: 10 }, (_, i) => ({
      id: `board-${i}`,
      title: `Minutes ${i}`,
      text: 'The budget was approved by the board.',
    })),
  ],
  queries: [{ id: 'q', text: 'zephyr budget approved' }],
  qrels: new Map([['q', new Map([['answer', 1]])]]),
};

const fake = createOpenAiFake();
const dirs: string[] = [];

beforeAll(() => fake.start());
afterAll(async () => {
  await fake.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function measure(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-eval-rerank-'));
  dirs.push(dataDir);
  return runEval(SET, loadConfig({ env, overrides: { dataDir } }), ['fulltext', 'hybrid']);
}

describe('npm run eval with a reranker configured', () => {
  it('measures the reranked retrieval as a row of its own and names the reranker', async () => {
    fake.reset();
    const result = await measure({
      DROPQA_SEARCH__RERANK__KIND: 'openai',
      DROPQA_SEARCH__RERANK__MODEL: 'bge-reranker-v2-m3',
      DROPQA_SEARCH__RERANK__BASE_URL: `${fake.url}/v1`,
      DROPQA_SEARCH__RERANK__MAX_RETRIES: '0',
    });
    const ndcg = Object.fromEntries(result.kinds.map((k) => [k.kind, k.ndcg10]));
    expect(Object.keys(ndcg)).toEqual(['fulltext', 'hybrid', RERANKED]);
    expect(ndcg.hybrid).toBeLessThan(1);
    expect(ndcg[RERANKED]).toBe(1);
    expect(result.providers).toEqual({
      embedder: expect.stringMatching(/^offline /),
      reranker: 'openai bge-reranker-v2-m3',
    });
    const calls = fake.recorded('rerank');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toMatchObject({ model: 'bge-reranker-v2-m3', query: 'zephyr budget approved' });
  }, 120_000);

  it('measures the kinds alone, naming no reranker, when none is configured', async () => {
    fake.reset();
    const result = await measure({});
    expect(result.kinds.map((k) => k.kind)).toEqual(['fulltext', 'hybrid']);
    expect(result.providers.reranker).toBe('none');
    expect(fake.recorded('rerank')).toHaveLength(0);
  }, 120_000);
});
