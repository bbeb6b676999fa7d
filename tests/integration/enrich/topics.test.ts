import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS, readableCollections } from '#shared/access/scope.ts';
import { type Database, type Db, queryRows } from '#shared/db/index.ts';
import {
  deriveDocumentTopics,
  identifyQuestionTopics,
  mergeTopics,
  type TopicSettings,
} from '#shared/enrich/topics/index.ts';
import { NotFoundError } from '#shared/errors.ts';
import { indexParsedDocument } from '#shared/index/index-document.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import type { Embedder, Providers } from '#shared/llm/types.ts';
import type { TreeNode } from '#shared/parse/types.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { promptText, scriptedChat } from '../../helpers/scripted-chat.ts';
import { insertDocument } from '../index/insert-document.ts';

const SETTINGS: TopicSettings = { minPerDocument: 3, maxPerDocument: 5, mergeThreshold: 0.85, batchSize: 16 };
const offline: Providers = { embedder: new HashingEmbedder({ dimensions: 64 }), label: 'offline' };

const KUBERNETES: [string, string][] = [
  ['Kubernetes cluster', 'The Kubernetes cluster runs every service. Kubernetes upgrades happen monthly.'],
  ['Cluster budget', 'The cluster budget grows by ten percent. Budget reviews are quarterly.'],
  ['Monitoring', 'Prometheus monitors the cluster. Alerts page the on-call engineer.'],
];

/** Fixed name vectors: 'moving to the cloud' is 0.95 similar to 'cloud migration', 'cloud costs' 0.7. */
function tableEmbedder(): Embedder {
  const table: Record<string, number[]> = {
    'cloud migration': [1, 0, 0],
    'moving to the cloud': [0.95, 0.3122, 0],
    'cloud costs': [0.7, 0.7141, 0],
  };
  return {
    model: 'table-v1',
    dimensions: 3,
    async embed(texts) {
      return texts.map((t) => table[t.toLowerCase()] ?? [0, 0, 1]);
    },
  };
}

function scriptedTopics(...names: string[]) {
  return scriptedChat(() => ({
    topics: names.map((name, i) => ({ name, description: `About ${name}.`, relevance: 1 - i * 0.1 })),
  }));
}

describe.each(DRIVERS)('topics (%s)', (driver) => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await openTestDatabase(driver);
    db = database.db;
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    // Each test's own corpus: earlier documents would join its topics (they share key phrases).
    await db.execute(sql`DELETE FROM documents`);
    await db.execute(sql`DELETE FROM topics`);
  });

  /** A live document (version 1 current) with the given sections (and file name: else a unique one). */
  async function document(title: string, sections: [string, string][], filename?: string): Promise<string> {
    const documentId = await insertDocument(db, filename ?? `${title}-${Math.random()}.md`);
    const children: TreeNode[] = sections.map(([t, text]) => ({
      type: 'section',
      title: t,
      children: [{ type: 'paragraph', text }],
    }));
    await indexParsedDocument(db, {
      documentId,
      version: 1,
      parsed: { title, metadata: {}, images: [], warnings: [], children },
    });
    await db.execute(sql`INSERT INTO document_versions (document_id, version, file_hash, file_size, file_type, object_key, status)
      VALUES (${documentId}::uuid, 1, 'hash', 1, 'md', ${`uploads/${title}.md`}, 'ready')`);
    await db.execute(
      sql`UPDATE documents SET current_version = 1, status = 'ready' WHERE id = ${documentId}::uuid`,
    );
    return documentId;
  }

  async function linked(documentId: string) {
    return queryRows<{ name: string; confidence: number; embedding_model: string }>(
      db,
      sql`SELECT t.name, dt.confidence, t.embedding_model FROM document_topics dt JOIN topics t ON t.id = dt.topic_id
          WHERE dt.document_id = ${documentId}::uuid ORDER BY dt.confidence DESC, t.name`,
    );
  }

  it('links a document offline to 3-5 keyword topics with confidences', async () => {
    const documentId = await document('Kubernetes operations', KUBERNETES);
    const result = await deriveDocumentTopics(db, offline, { documentId, version: 1 }, SETTINGS);
    expect(result.modelCalls).toBe(0);
    const rows = await linked(documentId);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.length).toBeLessThanOrEqual(5);
    // Both words weigh 7 (titles 3 and 2, body 1 each): equal best confidence; a name keeps its capital.
    expect(rows.slice(0, 2).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'cluster', confidence: 1, embedding_model: offline.embedder.model },
      { name: 'Kubernetes', confidence: 1, embedding_model: offline.embedder.model },
    ]);
  });

  it('ranks a word the other documents share below a rarer one (offline document frequencies)', async () => {
    for (const team of ['Lisbon', 'Porto', 'Faro']) {
      const other = await document(`${team} report`, [
        ['Summary', `The quarterly numbers of ${team} look fine. Quarterly planning starts soon.`],
      ]);
      await deriveDocumentTopics(db, offline, { documentId: other, version: 1 }, SETTINGS);
    }
    const documentId = await document('Plant notes', [
      [
        'Overview',
        'Quarterly checks, quarterly audits and quarterly reports. Every turbine spins; turbine logs.',
      ],
    ]);
    await deriveDocumentTopics(db, offline, { documentId, version: 1 }, SETTINGS);
    const names = (await linked(documentId)).map((row) => row.name);
    expect(names).toContain('turbine');
    expect(names.indexOf('turbine')).toBeLessThan(
      names.includes('quarterly') ? names.indexOf('quarterly') : Number.POSITIVE_INFINITY,
    );
  });

  it('never makes a currency, a unit or a file-name title a topic, even one both documents use', async () => {
    const memo = await document(
      'report-final-v2',
      [
        [
          'Borealis costs',
          'Project Borealis cost 2.4 million euros. The euros came from the energy fund; 300,000 euros were left. Borealis used 120 kilograms of cable.',
        ],
        [
          'Energy fund',
          'The energy fund pays 50,000 euros a year. Borealis returns the unused euros to the energy fund.',
        ],
      ],
      'report-final-v2.md',
    );
    const review = await document('Borealis review', [
      [
        'Borealis results',
        'Project Borealis cut energy use by 18 percent. Its budget in euros stayed flat; the euros saved went to the energy fund.',
      ],
      [
        'Lessons',
        'Borealis shows that a small energy fund in euros can pay for itself. 项目预算为三百万欧元，欧元结余退回。',
      ],
    ]);
    for (const documentId of [memo, review])
      await deriveDocumentTopics(db, offline, { documentId, version: 1 }, SETTINGS);
    const names = [...(await linked(memo)), ...(await linked(review))].map((r) => r.name.toLowerCase());
    // The subjects both share, each linking them.
    expect(names.filter((n) => n === 'borealis')).toHaveLength(2);
    expect(names.filter((n) => n === 'energy fund')).toHaveLength(2);
    for (const name of names) expect(name).not.toMatch(/euro|eur\b|欧元|kilogram|percent|report|final/);
  });

  it('puts a second document into the existing topic of the same name', async () => {
    const first = await document('Kubernetes operations', KUBERNETES);
    await deriveDocumentTopics(db, offline, { documentId: first, version: 1 }, SETTINGS);
    const second = await document('Kubernetes security', [
      ['Kubernetes access', 'Kubernetes roles limit access. Kubernetes audit logs are kept.'],
      ['Secrets', 'Secrets are encrypted. Secrets rotate monthly.'],
    ]);
    await deriveDocumentTopics(db, offline, { documentId: second, version: 1 }, SETTINGS);
    const [topic] = await queryRows<{ documents: number }>(
      db,
      sql`SELECT count(*)::int AS documents FROM document_topics dt JOIN topics t ON t.id = dt.topic_id
          WHERE lower(t.name) = 'kubernetes'`,
    );
    expect(topic?.documents).toBe(2);
    expect((await linked(second)).length).toBeGreaterThanOrEqual(2);
  });

  it('asks the model for topics once and merges a name at 0.85 similarity or above', async () => {
    const providers = (chat: ReturnType<typeof scriptedTopics>): Providers => ({
      ...offline,
      embedder: tableEmbedder(),
      chat,
    });
    const a = await document('Cloud plan', KUBERNETES);
    await deriveDocumentTopics(
      db,
      providers(scriptedTopics('Cloud migration')),
      { documentId: a, version: 1 },
      SETTINGS,
    );
    const b = await document('Cloud move', KUBERNETES);
    const chat = scriptedTopics('Moving to the cloud', 'Cloud costs');
    const result = await deriveDocumentTopics(db, providers(chat), { documentId: b, version: 1 }, SETTINGS);
    expect(result.modelCalls).toBe(1);
    expect(chat.calls).toHaveLength(1);
    expect(chat.calls[0]?.kind).toBe('structured');
    expect(promptText(chat.calls[0]?.request ?? { role: 'summarize', messages: [] })).toContain(
      'Cluster budget',
    );
    expect((await linked(b)).map((r) => r.name)).toEqual(['Cloud migration', 'Cloud costs']);
    expect(result.links.map((l) => l.created)).toEqual([false, true]);
    expect((await linked(b))[1]?.confidence).toBeCloseTo(0.9);
  });

  it('falls back to keywords when the model fails', async () => {
    const documentId = await document('Kubernetes operations', KUBERNETES);
    const chat = scriptedChat(() => {
      throw new Error('model unavailable');
    });
    const result = await deriveDocumentTopics(db, { ...offline, chat }, { documentId, version: 1 }, SETTINGS);
    expect(result.fallback).toMatch(/model unavailable/);
    expect((await linked(documentId)).length).toBeGreaterThanOrEqual(3);
  });

  it('replaces the links of the previous version and drops topics left without documents', async () => {
    const documentId = await document('Cloud plan', KUBERNETES);
    const withChat = (chat: ReturnType<typeof scriptedTopics>) => ({
      ...offline,
      embedder: tableEmbedder(),
      chat,
    });
    await deriveDocumentTopics(
      db,
      withChat(scriptedTopics('Cloud costs')),
      { documentId, version: 1 },
      SETTINGS,
    );
    await indexParsedDocument(db, {
      documentId,
      version: 2,
      parsed: { title: 'Cloud plan', metadata: {}, images: [], warnings: [], children: [] },
    });
    await deriveDocumentTopics(
      db,
      withChat(scriptedTopics('Cloud migration')),
      { documentId, version: 2 },
      SETTINGS,
    );
    expect((await linked(documentId)).map((r) => r.name)).toEqual(['Cloud migration']);
    const names = await queryRows<{ name: string }>(db, sql`SELECT name FROM topics`);
    expect(names.map((n) => n.name)).toEqual(['Cloud migration']);
  });

  it('links the earlier documents that kept a new topic’s phrase; one at five topics gives up its weakest unshared topic', async () => {
    const full = await document('Hangar notes', KUBERNETES);
    const withChat = (...names: string[]) => ({ ...offline, chat: scriptedTopics(...names) });
    const chatSettings = { ...SETTINGS, maxPerDocument: 5 };
    await deriveDocumentTopics(
      db,
      withChat('Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon'),
      { documentId: full, version: 1 },
      chatSettings,
    );
    // Epsilon (the weakest, 0.6) is shared, so Delta (0.7) is the weakest topic only `full` has.
    const sharing = await document('Epsilon notes', KUBERNETES);
    await deriveDocumentTopics(db, withChat('Epsilon'), { documentId: sharing, version: 1 }, chatSettings);
    await db.execute(sql`UPDATE document_versions SET topic_phrases = ARRAY['zeppelin hangar']
      WHERE document_id IN (${full}::uuid, ${sharing}::uuid)`);
    const later = await document('Zeppelin hangar', [
      ['Zeppelin hangar', 'The zeppelin hangar is old. The zeppelin hangar roof leaks in winter.'],
    ]);
    await deriveDocumentTopics(db, offline, { documentId: later, version: 1 }, SETTINGS);
    expect((await linked(later)).map((r) => r.name)).toContain('Zeppelin hangar');
    expect((await linked(full)).map((r) => [r.name, r.confidence])).toEqual([
      ['Alpha', 1],
      ['Beta', 0.9],
      ['Gamma', 0.8],
      ['Epsilon', 0.6],
      ['Zeppelin hangar', 0.5],
    ]);
    expect((await linked(sharing)).map((r) => r.name)).toEqual(['Epsilon', 'Zeppelin hangar']);
    const names = await queryRows<{ name: string }>(db, sql`SELECT name FROM topics WHERE name = 'Delta'`);
    expect(names).toEqual([]);
  });

  it('leaves the topics alone when a newer version is already current', async () => {
    const documentId = await document('Kubernetes operations', KUBERNETES);
    await db.execute(sql`UPDATE documents SET current_version = 2 WHERE id = ${documentId}::uuid`);
    const result = await deriveDocumentTopics(db, offline, { documentId, version: 1 }, SETTINGS);
    expect(result.superseded).toBe(true);
    expect(await linked(documentId)).toEqual([]);
  });

  it('merges source topics into a target, keeping each document once', async () => {
    const a = await document('Kubernetes operations', KUBERNETES);
    const b = await document('Kubernetes again', KUBERNETES);
    const providers = (...names: string[]) => ({ ...offline, chat: scriptedTopics(...names) });
    await deriveDocumentTopics(
      db,
      providers('Containers', 'Clusters'),
      { documentId: a, version: 1 },
      SETTINGS,
    );
    await deriveDocumentTopics(
      db,
      providers('Clusters', 'Orchestration'),
      { documentId: b, version: 1 },
      SETTINGS,
    );
    const ids = new Map(
      (await queryRows<{ id: string; name: string }>(db, sql`SELECT id, name FROM topics`)).map((t) => [
        t.name,
        t.id,
      ]),
    );
    const target = ids.get('Clusters') ?? '';
    const result = await mergeTopics(db, {
      sourceIds: [ids.get('Containers') ?? '', ids.get('Orchestration') ?? ''],
      targetId: target,
    });
    expect(result).toEqual({ topicId: target, documents: 2 });
    expect((await linked(a)).map((r) => r.name)).toEqual(['Clusters']);
    expect((await queryRows(db, sql`SELECT id FROM topics`)).length).toBe(1);
    await expect(
      mergeTopics(db, { sourceIds: [ids.get('Containers') ?? ''], targetId: target }),
    ).rejects.toThrow(NotFoundError);
  });

  it('re-embeds existing topics with a new embedding model before comparing', async () => {
    const a = await document('Cloud plan', KUBERNETES);
    await deriveDocumentTopics(
      db,
      { ...offline, chat: scriptedTopics('Cloud migration') },
      { documentId: a, version: 1 },
      SETTINGS,
    );
    const b = await document('Cloud move', KUBERNETES);
    const table = { ...offline, embedder: tableEmbedder(), chat: scriptedTopics('Moving to the cloud') };
    const result = await deriveDocumentTopics(db, table, { documentId: b, version: 1 }, SETTINGS);
    expect(result.links.map((l) => [l.name, l.created])).toEqual([['Cloud migration', false]]);
    const models = await queryRows<{ embedding_model: string; dims: number }>(
      db,
      sql`SELECT DISTINCT embedding_model, vector_dims(embedding) AS dims FROM topics`,
    );
    expect(models).toEqual([{ embedding_model: 'table-v1', dims: 3 }]);
  });

  it('merges by the vectors it holds in memory and sees the topics another writer changed since', async () => {
    const providers = (...names: string[]): Providers => ({
      ...offline,
      embedder: tableEmbedder(),
      chat: scriptedTopics(...names),
    });
    const derive = async (title: string, ...names: string[]) => {
      const documentId = await document(title, KUBERNETES);
      const { links } = await deriveDocumentTopics(
        db,
        providers(...names),
        { documentId, version: 1 },
        SETTINGS,
      );
      return links.map((l) => [l.name, l.created]);
    };
    const generation = async () =>
      (await queryRows<{ n: number }>(db, sql`SELECT n::int AS n FROM topic_generation`))[0]?.n ?? 0;
    const start = await generation();
    expect(await derive('Plan', 'Cloud migration')).toEqual([['Cloud migration', true]]);
    expect(await derive('Costs', 'Cloud costs')).toEqual([['Cloud costs', true]]);
    // 0.95 similar to 'Cloud migration' by the vectors alone (no word in common but 'cloud').
    expect(await derive('Move', 'Moving to the cloud')).toEqual([['Cloud migration', false]]);
    // Another writer renames one topic and deletes the other.
    await db.execute(sql`UPDATE topics SET name = 'Cloud move' WHERE name = 'Cloud migration'`);
    await db.execute(sql`DELETE FROM topics WHERE name = 'Cloud costs'`);
    expect(await derive('Again', 'Cloud move', 'Cloud costs')).toEqual([
      ['Cloud move', false],
      ['Cloud costs', true],
    ]);
    // One per row written: two topics created, one renamed, one deleted, one created again.
    expect((await generation()) - start).toBe(5);
  });

  it('identifies the topics a question is about, best first', async () => {
    const documentId = await document('Kubernetes operations', KUBERNETES);
    await deriveDocumentTopics(db, offline, { documentId, version: 1 }, SETTINGS);
    const topics = await identifyQuestionTopics(
      db,
      ALL_COLLECTIONS,
      offline,
      'How is the Kubernetes cluster upgraded?',
    );
    expect(topics[0]?.name).toMatch(/kubernetes|cluster/i);
    expect(topics[0]?.documents).toBe(1);
    expect(topics.length).toBeLessThanOrEqual(3);
    expect(await identifyQuestionTopics(db, ALL_COLLECTIONS, offline, '???')).toEqual([]);
  });

  it('names no topic formed only from documents the asker cannot read', async () => {
    const documentId = await document('Kubernetes operations', KUBERNETES);
    await deriveDocumentTopics(db, offline, { documentId, version: 1 }, SETTINGS);
    await db.execute(sql`UPDATE documents SET collection = 'hr' WHERE id = ${documentId}::uuid`);
    const question = 'How is the Kubernetes cluster upgraded?';
    expect(await identifyQuestionTopics(db, readableCollections(['engineering']), offline, question)).toEqual(
      [],
    );
    expect(
      (await identifyQuestionTopics(db, readableCollections(['hr']), offline, question))[0]?.name,
    ).toMatch(/kubernetes|cluster/i);
  });

  it('finds no topic by the hashing embedder’s chance similarity alone', async () => {
    const documentId = await document('Kubernetes operations', KUBERNETES);
    const wide: Providers = { embedder: new HashingEmbedder({ dimensions: 256 }), label: 'offline' };
    await deriveDocumentTopics(db, wide, { documentId, version: 1 }, SETTINGS);
    for (const question of [
      '2021年北京大兴机场年旅客吞吐量是多少？',
      'Who was the cashier on the TechMart receipt?',
    ]) {
      expect(await identifyQuestionTopics(db, ALL_COLLECTIONS, wide, question)).toEqual([]);
    }
    expect(
      (await identifyQuestionTopics(db, ALL_COLLECTIONS, wide, 'When is the cluster budget reviewed?'))[0]
        ?.name,
    ).toMatch(/budget|cluster/i);
  });
});
