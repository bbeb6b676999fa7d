import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '#shared/db/index.ts';
import {
  activate,
  describeImages,
  parse,
  register,
  summarize,
  topics,
} from '#shared/pipeline/steps/index.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { FAKE_MODELS, type FakeServer, fakeProviders, startFake } from '../../fakes/index.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { textPng } from '../../helpers/text-png.ts';
import { BEDROCK, OPENAI } from '../llm/protocols.ts';
import { testDeps, utf8 } from '../pipeline/fixtures.ts';

const DOC = `# Quarterly review

## Revenue

Revenue grew in every region this quarter.

![Revenue by region](chart.png)

## Hiring

Hiring slowed in the second month.
`;

const DESCRIPTION = 'A bar chart of revenue per region; the north leads.';
/**
 * Valid for the summary calls (summary and contexts) and the topics call (zod drops the other keys):
 * the topics are drafted while the document is summarized, so the last two may come in either order.
 */
const STRUCTURED = {
  summary: 'A review of revenue and hiring.',
  contexts: [{ id: 1, context: 'Passage 1 is from the quarterly review.' }],
  topics: [{ name: 'Quarterly revenue', description: 'Revenue per quarter.', relevance: 0.9 }],
};

const CASES = DRIVERS.flatMap((driver) => [BEDROCK, OPENAI].map((protocol) => ({ driver, protocol })));

describe.each(CASES)(
  'enrichment through the real $protocol.kind client ($driver)',
  ({ driver, protocol }) => {
    let database: Database;
    let deps: PipelineDeps & { dispose(): Promise<void> };
    let fake: FakeServer;
    beforeAll(async () => {
      database = await openTestDatabase(driver);
      fake = await startFake(protocol.kind);
      const base = await testDeps(database.db);
      const providers = fakeProviders(protocol.kind, fake, { chat: { maxConcurrency: 2 } });
      deps = { ...base, providers, config: { ...base.config, providers: { ...base.config.providers } } };
    });
    afterAll(async () => {
      await fake?.stop();
      await deps?.dispose();
      await database?.close();
    });

    it('describes the image, summarizes, contextualizes, embeds and links topics, and stores the results', async () => {
      await deps.store.put('review/chart.png', textPng('HELLO'));
      await deps.store.put('review/review.md', utf8(DOC));
      const registered = await register({ key: 'review/review.md' }, deps);
      const ref = { documentId: registered.documentId, version: registered.version };
      const { images } = await parse(ref, deps);
      const [tree] = await queryRows<{ sections: number }>(
        database.db,
        sql`SELECT count(*)::int AS sections FROM nodes WHERE document_id = ${ref.documentId}::uuid AND node_type = 'section'`,
      );
      const sections = tree?.sections ?? 0;
      // DescribeImage, then one summary (with its paragraphs' contexts) per section, then the
      // document's summary and the topics.
      fake.enqueue(
        'chat',
        { text: DESCRIPTION },
        ...Array.from({ length: sections + 2 }, () => protocol.structuredReply(STRUCTURED)),
      );
      expect(await describeImages({ ...ref, after: images.after }, deps)).toMatchObject({ left: 0 });
      await summarize(ref, deps);
      await topics(ref, deps);
      await activate(ref, deps);

      const chats = fake.recorded(protocol.chatOp);
      expect(chats).toHaveLength(sections + 3);
      expect(new Set(chats.map((r) => r.model))).toEqual(new Set([FAKE_MODELS[protocol.kind].chat]));
      const withImage = chats.filter((r) => protocol.images(r.body).length > 0);
      expect(withImage).toHaveLength(1);
      expect(protocol.images(withImage[0]?.body)[0]?.mime).toBe('image/png');
      const schemas = chats.slice(1).map((r) =>
        Object.keys(protocol.structuredSchema(r.body).properties as object)
          .sort()
          .join(','),
      );
      expect(schemas.slice(0, sections)).toEqual(Array(sections).fill('contexts,summary'));
      expect(schemas.slice(sections).sort()).toEqual(['contexts,summary', 'topics']);
      const embeds = fake.recorded(protocol.kind === 'bedrock' ? 'invoke' : 'embeddings');
      expect(embeds.length).toBeGreaterThan(0);
      expect(new Set(embeds.map((r) => r.model))).toEqual(new Set([FAKE_MODELS[protocol.kind].embed]));

      const [image] = await queryRows<{ description: string }>(
        database.db,
        sql`SELECT i.description FROM images i JOIN nodes n ON n.id = i.node_id WHERE n.document_id = ${ref.documentId}::uuid`,
      );
      expect(image?.description).toBe(DESCRIPTION);
      const summaries = await queryRows<{ title: string; summary: string }>(
        database.db,
        sql`SELECT title, summary FROM nodes WHERE document_id = ${ref.documentId}::uuid AND node_type = 'document'`,
      );
      expect(summaries[0]?.summary).toBe('A review of revenue and hiring.');
      const [paragraph] = await queryRows<{ index_text: string }>(
        database.db,
        sql`SELECT index_text FROM nodes WHERE document_id = ${ref.documentId}::uuid AND content LIKE 'Revenue grew%'`,
      );
      expect(paragraph?.index_text).toMatch(/^Passage 1 is from the quarterly review\.\n/);
      const [vectors] = await queryRows<{ n: number; models: string[] }>(
        database.db,
        sql`SELECT count(*)::int AS n, array_agg(DISTINCT e.model) AS models FROM embeddings e
          JOIN nodes n ON n.id = e.node_id WHERE n.document_id = ${ref.documentId}::uuid`,
      );
      expect(vectors?.models).toEqual([deps.providers.embedder.model]);
      expect(vectors?.n).toBeGreaterThanOrEqual(6);
      const [topic] = await queryRows<{ name: string; confidence: number }>(
        database.db,
        sql`SELECT t.name, dt.confidence FROM document_topics dt JOIN topics t ON t.id = dt.topic_id
          WHERE dt.document_id = ${ref.documentId}::uuid`,
      );
      expect(topic).toEqual({ name: 'Quarterly revenue', confidence: 0.9 });
    });
  },
);
