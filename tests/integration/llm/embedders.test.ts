import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, ProviderError } from '#shared/errors.ts';
import type { FakeServer } from '../../fakes/index.ts';
import { fakeProviders, startFake } from '../../fakes/providers.ts';

function norm(vector: number[]): number {
  return Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
}

describe('bedrock embedders', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFake('bedrock');
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => fake.reset());

  it('embeds with Titan v2 one text per InvokeModel call, at the configured dimensions', async () => {
    const { embedder, usage } = fakeProviders('bedrock', fake, { embedder: { dimensions: 512 } });
    const texts = Array.from({ length: 12 }, (_, i) => `paragraph number ${i}`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(12);
    expect(vectors.every((v) => v.length === 512 && Math.abs(norm(v) - 1) < 1e-9)).toBe(true);
    const calls = fake.recorded('invoke');
    expect(calls).toHaveLength(12);
    expect(calls[0]?.model).toBe('amazon.titan-embed-text-v2:0');
    expect(calls.map((c) => c.body.inputText).sort()).toEqual([...texts].sort());
    expect(calls[0]?.body).toMatchObject({ dimensions: 512, normalize: true });
    expect(usage?.snapshot().embed).toEqual({ calls: 12, inputTokens: 36, outputTokens: 0 });
  });

  it('gives a blank text the zero vector without a call', async () => {
    const { embedder } = fakeProviders('bedrock', fake);
    const [blank, word] = await embedder.embed(['   ', 'word']);
    expect(blank?.every((x) => x === 0)).toBe(true);
    expect(word && norm(word)).toBeCloseTo(1);
    expect(fake.recorded('invoke')).toHaveLength(1);
  });

  it('refuses Titan dimensions other than 256, 512 and 1024', () => {
    expect(() => fakeProviders('bedrock', fake, { embedder: { dimensions: 300 } })).toThrow(ConfigError);
  });

  it('embeds with Cohere multilingual in batches of at most 96, documents and queries apart', async () => {
    const { embedder } = fakeProviders('bedrock', fake, {
      embedder: { model: 'cohere.embed-multilingual-v3', dimensions: 1024, batchSize: 96 },
    });
    const texts = Array.from({ length: 200 }, (_, i) => `文档段落 ${i}`);
    const vectors = await embedder.embed(texts);
    const [query] = await embedder.embed(['预算是多少？'], { purpose: 'query' });
    expect(vectors).toHaveLength(200);
    expect(query).toHaveLength(1024);
    const calls = fake.recorded('invoke');
    const documents = calls.filter((c) => c.body.input_type === 'search_document');
    expect(documents.map((c) => c.body.texts.length)).toEqual([67, 67, 66]);
    expect(documents.flatMap((c) => c.body.texts)).toEqual(texts);
    expect(calls.filter((c) => c.body.input_type === 'search_query').map((c) => c.body.texts)).toEqual([
      ['预算是多少？'],
    ]);
    expect(calls[0]?.model).toBe('cohere.embed-multilingual-v3');
  });

  it('retries a throttled embedding call', async () => {
    const { embedder } = fakeProviders('bedrock', fake);
    fake.enqueue('embed', { error: { status: 429, type: 'ThrottlingException' } });
    const [vector] = await embedder.embed(['retry me']);
    expect(vector).toHaveLength(256);
    expect(fake.recorded('invoke')).toHaveLength(2);
  });
});

describe('openai-compatible embedder', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFake('openai');
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => fake.reset());

  it('coalesces concurrent embed calls into one /v1/embeddings request', async () => {
    const { embedder, usage } = fakeProviders('openai', fake);
    const vectors = await Promise.all(Array.from({ length: 40 }, (_, i) => embedder.embed([`text ${i}`])));
    expect(vectors.map((v) => v[0]?.length)).toEqual(Array(40).fill(8));
    const calls = fake.recorded('embeddings');
    expect(calls.map((c) => c.body.input.length)).toEqual([40]);
    expect(calls[0]?.model).toBe('nomic-embed-text');
    expect(usage?.snapshot().embed?.calls).toBe(1);
  });

  it('cuts a large request into batches of at most batchSize', async () => {
    const { embedder } = fakeProviders('openai', fake, { embedder: { batchSize: 64 } });
    const texts = Array.from({ length: 150 }, (_, i) => `passage ${i}`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(150);
    expect(fake.recorded('embeddings').map((c) => c.body.input.length)).toEqual([50, 50, 50]);
    const again = await embedder.embed([texts[7] ?? '']);
    expect(again[0]).toEqual(vectors[7]);
  });

  it('says which setting is wrong when the model returns other dimensions', async () => {
    const { embedder } = fakeProviders('openai', fake, { embedder: { dimensions: 16 } });
    const error = await embedder.embed(['x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('providers.embedder.dimensions is 16');
  });

  it('sends the dimensions parameter to text-embedding-3 models', async () => {
    const { embedder } = fakeProviders('openai', fake, {
      embedder: { model: 'text-embedding-3-small', dimensions: 16 },
    });
    const [vector] = await embedder.embed(['x']);
    expect(vector).toHaveLength(16);
    expect(fake.recorded('embeddings')[0]?.body.dimensions).toBe(16);
  });
});
