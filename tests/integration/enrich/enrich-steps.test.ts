import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '#shared/db/index.ts';
import type { ChatRequest } from '#shared/llm/types.ts';
import { activate, parse, register, summarize, topics } from '#shared/pipeline/steps/index.ts';
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

/** What a call was for: a section's or the document's title, `topics` or (separate) `contexts`. */
function label(request: ChatRequest): string {
  if (request.system?.includes('topics')) return 'topics';
  if (promptText(request).includes('Passages:')) return 'contexts';
  if (promptText(request).includes('the changes between two versions')) return 'changes';
  return /(?:Section title|Document): (.*)/.exec(promptText(request))?.[1] ?? '?';
}

/**
 * Summaries that change with their input, one context per passage, and one topic; every answer
 * carries all three keys (each caller's schema keeps its own).
 */
function model() {
  return scriptedChat((request) => {
    const prompt = promptText(request);
    return {
      summary: `Summary: ${label(request)} (${createHash('md5').update(prompt).digest('hex').slice(0, 8)}).`,
      contexts: [...prompt.matchAll(/^\[(\d+)\] /gm)].map((m) => ({
        id: Number(m[1]),
        context: 'About storage.',
      })),
      topics: [{ name: 'Storage planning', description: 'Plans for storage.', relevance: 0.9 }],
    };
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
    // One call per section and the document (each writing its paragraphs' contexts), and topics.
    expect(calls).toHaveLength((counts?.sections ?? 0) + 2);
    expect(calls.every((c) => c.kind === 'structured')).toBe(true);
    const topicPrompt = promptText(
      calls.find((c) => label(c.request) === 'topics')?.request ?? { role: 'summarize', messages: [] },
    );
    expect(topicPrompt).toMatch(/^ {2}- Replication: Summary: Replication/m);
    expect(topicPrompt).toMatch(/^ {4}- Second site: Summary: Second site/m);
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

  it('calls the model again only for a changed section, its ancestors, the document, topics and the change summary', async () => {
    const chat = model();
    const withChat = { ...deps, providers: { ...deps.providers, chat } };
    const ingest = async (text: string) => {
      await deps.store.put('plans/reingest.md', utf8(text));
      const registered = await register({ key: 'plans/reingest.md' }, withChat);
      const ref = { documentId: registered.documentId, version: registered.version };
      await parse(ref, withChat);
      const before = chat.calls.length;
      await summarize(ref, withChat);
      await topics(ref, withChat);
      await activate(ref, withChat);
      return { ref, labels: chat.calls.slice(before).map((c) => label(c.request)) };
    };
    await ingest(DOC);
    const { ref, labels } = await ingest(DOC.replace('in March.', 'in April.'));
    // ...and once for the version's change summary.
    expect(labels.sort()).toEqual([
      'Replication',
      'Second site',
      'Storage plan',
      'changes',
      'reingest',
      'topics',
    ]);
    const rows = await queryRows<{ content: string; index_text: string }>(
      database.db,
      sql`SELECT content, index_text FROM nodes WHERE document_id = ${ref.documentId}::uuid
            AND version = ${ref.version}::int AND node_type = 'paragraph'`,
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.index_text.startsWith('About storage.\n'), row.content).toBe(true);
  });

  it("gives paragraphs past a summary call's bounds a context in one more call, and embeds them with it", async () => {
    const chat = model();
    const withChat = { ...deps, providers: { ...deps.providers, chat } };
    const items = Array.from({ length: 25 }, (_, i) => `Shelf ${i} holds the tapes of week ${i}.`);
    await deps.store.put('plans/long.md', utf8(`# Tapes\n\n${items.join('\n\n')}\n`));
    const registered = await register({ key: 'plans/long.md' }, withChat);
    const ref = { documentId: registered.documentId, version: registered.version };
    await parse(ref, withChat);
    await summarize(ref, withChat);
    // The section's summary (with 20 contexts), the document's, and one call for the other 5
    // contexts, from the document summary (topics are drafted by the Topics step).
    expect(chat.calls.map((c) => label(c.request)).sort()).toEqual(['Tapes', 'contexts', 'long']);
    const rows = await queryRows<{ index_text: string; vector: string }>(
      database.db,
      sql`SELECT n.index_text, e.embedding::text AS vector FROM nodes n JOIN embeddings e ON e.node_id = n.id
          WHERE n.document_id = ${ref.documentId}::uuid AND n.node_type = 'paragraph' ORDER BY n.ordinal`,
    );
    expect(rows).toHaveLength(25);
    const [expected] = await deps.providers.embedder.embed([rows[24]?.index_text ?? '']);
    expect(rows[24]?.index_text.startsWith('About storage.\n')).toBe(true);
    expect(JSON.parse(rows[24]?.vector ?? '[]')[0]).toBeCloseTo(expected?.[0] ?? Number.NaN, 5);
    for (const row of rows) expect(row.index_text.startsWith('About storage.\n')).toBe(true);
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
    // Noun phrases: "Storage costs" names the subject where a single keyword said "storage"
    // (shown as the document writes it).
    expect(rows.map((r) => r.name)).toContain('Storage costs');
    const nodes = await queryRows<{
      node_type: string;
      summary: string | null;
      index_text: string;
      vectors: number;
    }>(
      database.db,
      sql`SELECT n.node_type, n.summary, n.index_text, count(e.node_id)::int AS vectors
          FROM nodes n LEFT JOIN embeddings e ON e.node_id = n.id
          WHERE n.document_id = ${ref.documentId}::uuid GROUP BY n.id ORDER BY n.ordinal`,
    );
    // Extractive summaries, the meta-content form of the index text, and one vector per node.
    expect(nodes.filter((n) => n.node_type !== 'paragraph').every((n) => n.summary)).toBe(true);
    expect(
      nodes.find((n) => n.node_type === 'paragraph' && n.index_text.includes('Replicas'))?.index_text,
    ).toMatch(/Storage plan > Replication > Second site\nReplicas move/);
    expect(nodes.every((n) => n.vectors === 1)).toBe(true);
  });
});
