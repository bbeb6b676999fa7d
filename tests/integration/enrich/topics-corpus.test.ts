import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { type Database, type Db, queryRows } from '#shared/db/index.ts';
import { listTopics } from '#shared/documents/topics.ts';
import {
  deriveDocumentTopics,
  identifyQuestionTopics,
  type TopicSettings,
} from '#shared/enrich/topics/index.ts';
import { indexParsedDocument } from '#shared/index/index-document.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import type { Providers } from '#shared/llm/types.ts';
import { isStopWord } from '#shared/text/stop-words.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { insertDocument } from '../index/insert-document.ts';
import { type CorpusDocument, SUBJECTS } from './topic-corpus.ts';

const SETTINGS: TopicSettings = { minPerDocument: 3, maxPerDocument: 5, mergeThreshold: 0.85, batchSize: 16 };
const offline: Providers = { embedder: new HashingEmbedder({ dimensions: 256 }), label: 'offline' };
/** Function words and fragments of the filler sentences every document carries. */
const NEVER = [
  'adding',
  'beneath',
  'here',
  'carries',
  'provided',
  'standing',
  '一张',
  '下面',
  '测试',
  '以下',
];

describe.each(DRIVERS)('offline topics of a generated corpus (%s)', (driver) => {
  let database: Database;
  let db: Db;
  const ids = new Map<CorpusDocument, string>();

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    db = database.db;
    // Interleaved, so each subject's documents arrive among the others' (as a folder is dropped in).
    const order = [0, 1, 2].flatMap((i) => SUBJECTS.map((s) => s.documents[i] as CorpusDocument));
    for (const doc of order) {
      const documentId = await ingest(db, doc);
      ids.set(doc, documentId);
      await deriveDocumentTopics(db, offline, { documentId, version: 1 }, SETTINGS);
    }
  });
  afterAll(async () => {
    await database?.close();
  });

  async function topicsOf(documentId: string): Promise<string[]> {
    const rows = await queryRows<{ name: string }>(
      db,
      sql`SELECT t.name FROM document_topics dt JOIN topics t ON t.id = dt.topic_id
          WHERE dt.document_id = ${documentId}::uuid ORDER BY t.name`,
    );
    return rows.map((r) => r.name);
  }

  it.each(SUBJECTS.map((s) => [s.topic, s]))(
    'links the documents about %s under that topic',
    async (topic, subject) => {
      let linked = 0;
      for (const doc of subject.documents) {
        const names = (await topicsOf(ids.get(doc) as string)).map((n) => n.toLowerCase());
        if (names.includes(topic.toLowerCase())) linked += 1;
      }
      expect(linked).toBeGreaterThanOrEqual(2);
    },
  );

  it('gives every document 3 to 5 topics, none a stop word, number, date or fragment', async () => {
    const { items } = await listTopics(db, ALL_COLLECTIONS, { limit: 500, offset: 0 });
    for (const doc of ids.values()) {
      const names = await topicsOf(doc);
      expect(names.length).toBeGreaterThanOrEqual(3);
      expect(names.length).toBeLessThanOrEqual(5);
    }
    for (const { name } of items) {
      expect(isStopWord(name), name).toBe(false);
      expect(NEVER, name).not.toContain(name.toLowerCase());
      expect(name, name).not.toMatch(/\d/);
      expect(/\p{Script=Han}/u.test(name) ? [...name].length : name.length, name).toBeGreaterThanOrEqual(
        /\p{Script=Han}/u.test(name) ? 2 : 3,
      );
    }
  });

  it('lists the shared subjects first, sized by document count', async () => {
    const { items } = await listTopics(db, ALL_COLLECTIONS, { limit: 500, offset: 0 });
    const firstSingle = items.findIndex((t) => t.documentCount === 1);
    for (const subject of SUBJECTS) {
      const at = items.findIndex((t) => t.name.toLowerCase() === subject.topic.toLowerCase());
      expect(at, subject.topic).toBeGreaterThanOrEqual(0);
      expect(items[at]?.documentCount, subject.topic).toBeGreaterThanOrEqual(2);
      expect(at, subject.topic).toBeLessThan(firstSingle);
    }
    const counts = items.map((t) => t.documentCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('identifies the topics a question names, in either language', async () => {
    const [en] = await identifyQuestionTopics(
      db,
      ALL_COLLECTIONS,
      offline,
      'How much did Project Borealis cost?',
    );
    expect(en?.name.toLowerCase()).toBe('project borealis');
    expect(en?.documents).toBeGreaterThanOrEqual(2);
    const [zh] = await identifyQuestionTopics(db, ALL_COLLECTIONS, offline, '数据平台什么时候上线？');
    expect(zh?.name).toBe('数据平台');
  });

  it('lets a deleted document’s topics fade from the list', async () => {
    const subject = SUBJECTS[0];
    const [doc] = subject?.documents ?? [];
    const documentId = ids.get(doc as CorpusDocument) as string;
    const own = await topicsOf(documentId);
    await db.execute(sql`UPDATE documents SET deleted_at = now() WHERE id = ${documentId}::uuid`);
    const { items } = await listTopics(db, ALL_COLLECTIONS, { limit: 500, offset: 0 });
    const shared = items.find((t) => t.name.toLowerCase() === subject?.topic.toLowerCase());
    expect(shared?.documentCount).toBe(2);
    const only = own.filter((name) => !items.some((t) => t.name === name));
    expect(only.length).toBeGreaterThan(0);
    expect(items.every((t) => t.documentCount > 0)).toBe(true);
    await db.execute(sql`UPDATE documents SET deleted_at = NULL WHERE id = ${documentId}::uuid`);
  });
});

/** Indexes a generated document as version 1, current and ready. */
async function ingest(db: Db, doc: CorpusDocument): Promise<string> {
  const documentId = await insertDocument(db, `${doc.title}.md`);
  await indexParsedDocument(db, {
    documentId,
    version: 1,
    parsed: {
      title: doc.title,
      metadata: {},
      images: [],
      warnings: [],
      children: doc.sections.map(([title, text]) => ({
        type: 'section',
        title,
        children: [{ type: 'paragraph', text }],
      })),
    },
  });
  await db.execute(sql`INSERT INTO document_versions (document_id, version, file_hash, file_size, file_type, object_key, status)
    VALUES (${documentId}::uuid, 1, 'hash', 1, 'md', ${`uploads/${doc.title}.md`}, 'ready')`);
  await db.execute(
    sql`UPDATE documents SET current_version = 1, status = 'ready' WHERE id = ${documentId}::uuid`,
  );
  return documentId;
}
