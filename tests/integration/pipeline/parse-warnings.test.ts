import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.ts';
import { parse, register } from '#shared/pipeline/steps/index.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { type FakeServer, fakeProviders, startFake } from '../../fakes/index.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { testDeps, utf8 } from './fixtures.ts';

describe('Parse with a failing model provider', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  let fake: FakeServer;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    fake = await startFake('bedrock');
    const base = await testDeps(database.db);
    deps = { ...base, providers: fakeProviders('bedrock', fake) };
  });
  afterAll(async () => {
    await fake?.stop();
    await deps?.dispose();
    await database?.close();
  });

  it('parses with the offline fallback and returns the warning (the state output in AWS)', async () => {
    // One paragraph far above the size limit: its cuts are placed with the embedder, which refuses.
    const sentence = 'The harbour crane lifts containers from the ship onto waiting trucks. ';
    await deps.store.put('ops/crane.md', utf8(`# Crane\n\n${sentence.repeat(120)}\n`));
    for (let i = 0; i < 20; i++)
      fake.enqueue('embed', {
        error: { status: 400, type: 'AccessDeniedException', message: 'no model access' },
      });
    const registered = await register({ key: 'ops/crane.md' }, deps);
    const result = await parse({ documentId: registered.documentId, version: registered.version }, deps);
    // The embedder refuses, and the chat model's default fake reply is no title JSON: both fall back.
    expect(result.warnings).toContainEqual(
      expect.stringMatching(/structure by length only, the embedder failed: .*no model access/),
    );
    expect(result.warnings).toContainEqual(expect.stringMatching(/section titles from the model failed/));
  });
});
