import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '#shared/db/index.ts';
import { parse, register, summarize, topics } from '#shared/pipeline/steps/index.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { promptText, scriptedChat } from '../../helpers/scripted-chat.ts';
import { testDeps, utf8 } from '../pipeline/fixtures.ts';

const DOC = `# Storage plan

## Backups

Backups run nightly and are kept for thirty days.

## Replication

### Second site

Replicas move to the second site in March.

## Costs

Storage costs grow by ten percent a year.
`;

/** Summaries, one context per passage, and two topics. */
function model() {
  return scriptedChat((request, kind) => {
    const prompt = promptText(request);
    if (kind === 'structured' && prompt.includes('Passages:')) {
      return {
        contexts: [...prompt.matchAll(/^\[(\d+)\] /gm)].map((m) => ({
          id: Number(m[1]),
          context: 'About storage.',
        })),
      };
    }
    if (kind === 'structured') {
      return { topics: [{ name: 'Storage planning', description: 'Plans for storage.', relevance: 0.9 }] };
    }
    return `Summary: ${/(?:Section title|Document): (.*)/.exec(prompt)?.[1]}.`;
  });
}

describe.each(DRIVERS)('Summarize and Topics steps with a chat model (%s)', (driver) => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  beforeAll(async () => {
    database = await openTestDatabase(driver);
    deps = await testDeps(database.db);
  });
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  it('makes at most sections + 3 model calls and embeds leaves, sections and the document', async () => {
    const chat = model();
    const withChat = { ...deps, providers: { ...deps.providers, chat } };
    await deps.store.put('plans/storage.md', utf8(DOC));
    const registered = await register({ key: 'plans/storage.md' }, withChat);
    const ref = { documentId: registered.documentId, version: registered.version };
    await parse(ref, withChat);
    const before = chat.calls.length;
    await summarize(ref, withChat);
    await topics(ref, withChat);
    const calls = chat.calls.slice(before);
    const [counts] = await queryRows<{ sections: number; vectors: number; kinds: string[] }>(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM nodes WHERE document_id = ${ref.documentId}::uuid AND node_type = 'section') AS sections,
            count(*)::int AS vectors, array_agg(DISTINCT n.node_type ORDER BY n.node_type) AS kinds
          FROM embeddings e JOIN nodes n ON n.id = e.node_id WHERE n.document_id = ${ref.documentId}::uuid`,
    );
    expect(calls.length).toBeLessThanOrEqual((counts?.sections ?? 0) + 3);
    expect(calls.filter((c) => c.kind === 'structured')).toHaveLength(2);
    expect(counts?.kinds).toEqual(['document', 'paragraph', 'section']);
    const [topic] = await queryRows<{ name: string; confidence: number }>(
      database.db,
      sql`SELECT t.name, dt.confidence FROM document_topics dt JOIN topics t ON t.id = dt.topic_id
          WHERE dt.document_id = ${ref.documentId}::uuid`,
    );
    expect(topic).toEqual({ name: 'Storage planning', confidence: 0.9 });
    const [paragraph] = await queryRows<{ index_text: string }>(
      database.db,
      sql`SELECT index_text FROM nodes WHERE document_id = ${ref.documentId}::uuid AND content LIKE 'Backups run%'`,
    );
    expect(paragraph?.index_text.startsWith('About storage.\n')).toBe(true);
  });

  it('links keyword topics offline in the Topics step', async () => {
    await deps.store.put('plans/offline.md', utf8(DOC));
    const registered = await register({ key: 'plans/offline.md' }, deps);
    const ref = { documentId: registered.documentId, version: registered.version };
    await parse(ref, deps);
    await summarize(ref, deps);
    await topics(ref, deps);
    const rows = await queryRows<{ name: string }>(
      database.db,
      sql`SELECT t.name FROM document_topics dt JOIN topics t ON t.id = dt.topic_id
          WHERE dt.document_id = ${ref.documentId}::uuid`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.map((r) => r.name)).toContain('storage');
  });
});
