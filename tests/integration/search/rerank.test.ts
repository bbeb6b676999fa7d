import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import { ConfigError, ProviderError, ValidationError } from '#shared/errors.ts';
import { createReranker } from '#shared/llm/rerank/create.ts';
import { retrievePassages } from '#shared/search/passages.ts';
import { search } from '#shared/search/search.ts';
import type { SearchDeps } from '#shared/search/types.ts';
import {
  createBedrockFake,
  createOpenAiFake,
  FAKE_AWS_CREDENTIALS,
  type FakeServer,
} from '../../fakes/index.ts';
import { doc, indexCorpus, para, section, testEmbedder } from '../../helpers/corpus.ts';
import { openTestDatabase } from '../../helpers/db.ts';

/** Three paragraphs BM25 ranks storage, budget, hiring for the query; the scripted cross-encoder reverses the first two. */
const CORPUS = doc(
  'Plan',
  section(
    'Money',
    para('Budget budget budget budget: the budget line, the budget again.'),
    para('The storage budget approved for the data platform in 2024.'),
    para('Hiring plans for the next quarter.'),
  ),
);
const QUERY = 'storage budget approved platform';

const fakes: Record<'bedrock' | 'openai', FakeServer> = {
  bedrock: createBedrockFake(),
  openai: createOpenAiFake(),
};
let database: Database;
let base: Omit<SearchDeps, 'reranker'>;

beforeAll(async () => {
  await Promise.all([fakes.bedrock.start(), fakes.openai.start()]);
  database = await openTestDatabase('pglite');
  const embedder = testEmbedder();
  await indexCorpus(database.db, [{ filename: 'plan.md', versions: [CORPUS] }], embedder);
  base = { db: database.db, access: ALL_COLLECTIONS, embedder, search: loadConfig({ env: {} }).search };
});

afterAll(async () => {
  await database?.close();
  await Promise.all([fakes.bedrock.stop(), fakes.openai.stop()]);
});

beforeEach(() => {
  fakes.bedrock.reset();
  fakes.openai.reset();
});

function rerankConfig(kind: 'bedrock' | 'openai', extra: Record<string, string> = {}) {
  const env: Record<string, string> =
    kind === 'bedrock'
      ? { DROPQA_SEARCH__RERANK__MODEL: 'amazon.rerank-v1:0', DROPQA_SEARCH__RERANK__REGION: 'us-west-2' }
      : {
          DROPQA_SEARCH__RERANK__MODEL: 'bge-reranker-v2-m3',
          DROPQA_SEARCH__RERANK__BASE_URL: `${fakes.openai.url}/v1`,
        };
  return loadConfig({
    env: {
      DROPQA_SEARCH__RERANK__KIND: kind,
      DROPQA_SEARCH__RERANK__MAX_RETRIES: '0',
      ...(kind === 'bedrock' ? { DROPQA_SEARCH__RERANK__BASE_URL: fakes.bedrock.url } : {}),
      ...env,
      ...extra,
    },
  });
}

function depsWith(kind: 'bedrock' | 'openai'): SearchDeps {
  const reranker = createReranker(rerankConfig(kind), { awsCredentials: FAKE_AWS_CREDENTIALS });
  return { ...base, reranker };
}

describe.each(['bedrock', 'openai'] as const)('reranking through %s', (kind) => {
  it('reorders the fused hits by the cross-encoder and sends window-expanded passages', async () => {
    const deps = depsWith(kind);
    const plain = await search(deps, { query: QUERY, kind: 'fulltext', limit: 3 });
    expect(plain.map((h) => h.content.slice(0, 11))).toEqual(['The storage', 'Budget budg']);
    fakes[kind].enqueue('rerank', { scores: [0.2, 0.9] });
    const reranked = await search(deps, { query: QUERY, kind: 'fulltext', limit: 2, rerank: true });
    expect(reranked.map((h) => h.content.slice(0, 11))).toEqual(['Budget budg', 'The storage']);
    expect(reranked.map((h) => h.rerankScore)).toEqual([0.9, 0.2]);
    const [call] = fakes[kind].recorded('rerank');
    expect(fakes[kind].recorded('rerank')).toHaveLength(1);
    const passages: string[] =
      kind === 'openai'
        ? call?.body.documents
        : call?.body.sources.map(
            (s: { inlineDocumentSource: { textDocument: { text: string } } }) =>
              s.inlineDocumentSource.textDocument.text,
          );
    // Every leaf found (top N >= the limit), each with its path and its neighbouring paragraph.
    expect(passages).toHaveLength(2);
    const storage = passages.find((p) => p.includes('storage budget')) ?? '';
    expect(storage.split('\n')[0]).toBe('plan.md > Money');
    expect(storage).toContain('Budget budget budget');
    expect(storage).toContain('Hiring plans');
    if (kind === 'bedrock') {
      expect(call?.model).toBe('arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0');
    } else {
      expect(call?.body).toMatchObject({ model: 'bge-reranker-v2-m3', query: QUERY, top_n: 2 });
    }
  });

  it('is what the QA flows retrieve with when configured', async () => {
    const hits = await retrievePassages(depsWith(kind), QUERY, {}, 1);
    expect(hits.map((h) => h.content)).toEqual([
      'The storage budget approved for the data platform in 2024.',
    ]);
    expect(fakes[kind].recorded('rerank')).toHaveLength(1);
  });

  it('fails with a provider error naming the model when the service refuses', async () => {
    fakes[kind].enqueue('rerank', {
      error: { status: 400, type: 'ValidationException', message: 'bad input' },
    });
    await expect(search(depsWith(kind), { query: QUERY, kind: 'hybrid', rerank: true })).rejects.toThrow(
      ProviderError,
    );
  });
});

describe('reranking settings', () => {
  it('is off by default: QA retrieval makes no rerank call and rerank=true is refused clearly', async () => {
    expect(createReranker(loadConfig({ env: {} }))).toBeUndefined();
    const hits = await retrievePassages(base, QUERY, {}, 3);
    expect(hits).toHaveLength(3);
    await expect(search(base, { query: QUERY, kind: 'hybrid', rerank: true })).rejects.toThrow(
      /search\.rerank\.kind/,
    );
    await expect(search(depsWith('openai'), { query: QUERY, kind: 'keyword', rerank: true })).rejects.toThrow(
      ValidationError,
    );
  });

  it('names the missing setting', () => {
    expect(() => createReranker(loadConfig({ env: { DROPQA_SEARCH__RERANK__KIND: 'openai' } }))).toThrow(
      /search\.rerank\.model/,
    );
    expect(() =>
      createReranker(
        loadConfig({ env: { DROPQA_SEARCH__RERANK__KIND: 'openai', DROPQA_SEARCH__RERANK__MODEL: 'm' } }),
      ),
    ).toThrow(ConfigError);
  });
});
