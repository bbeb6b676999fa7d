import { describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import type { Db } from '#shared/db/client.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import { qaDepsOf } from '#shared/runtime/qa-deps.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';

describe('qaDepsOf', () => {
  it('carries the bucket and every qa setting of the configuration to the flows', () => {
    const config = parseConfig({
      search: { topK: 7 },
      qa: {
        maxIterations: 3,
        toolProtocol: 'json',
        routing: 'rules',
        twoStage: { speculative: false },
        documents: { maxDocuments: 2 },
      },
    });
    const store = new LocalBlobStore('/tmp/dropqa-unused');
    const embedder = new HashingEmbedder({ dimensions: 16 });
    const deps = qaDepsOf({ db: {} as Db, store, providers: { embedder, label: 'offline' }, config });
    expect(deps.store).toBe(store);
    expect(deps.embedder).toBe(embedder);
    expect(deps.search.topK).toBe(7);
    expect(deps.qa).toEqual({
      maxIterations: 3,
      toolProtocol: 'json',
      routing: 'rules',
      historyTokens: 1500,
    });
    expect(deps.twoStage?.speculative).toBe(false);
    expect(deps.documents?.maxDocuments).toBe(2);
  });

  it('routes with the model by default', () => {
    const config = parseConfig({});
    const deps = qaDepsOf({
      db: {} as Db,
      store: new LocalBlobStore('/tmp/dropqa-unused'),
      providers: { embedder: new HashingEmbedder({ dimensions: 16 }), label: 'offline' },
      config,
    });
    expect(deps.qa?.routing).toBe('model');
  });
});
