import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessScope, ALL_COLLECTIONS, readableCollections } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import { type Database, openPglite } from '#shared/db/index.ts';
import { listDocuments } from '#shared/documents/queries.ts';
import { getTopic, listTopics } from '#shared/documents/topics.ts';
import { search } from '#shared/search/index.ts';
import type { SearchDeps, SearchKind, SearchRequest } from '#shared/search/types.ts';
import { type CorpusDocument, doc, indexCorpus, para, section, testEmbedder } from '../../helpers/corpus.ts';

/** A small seeded generator (mulberry32): each run draws the same corpora, so a failure repeats. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ (t + t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'budget',
  'heron',
  'river',
  'cloud',
  'migration',
  'salary',
  'policy',
  'kernel',
  'harbor',
  'ledger',
];
const COLLECTIONS = ['hr', 'eng', 'default'];
const KINDS: SearchKind[] = ['keyword', 'fulltext', 'semantic', 'hybrid'];
const QUERIES = ['budget', 'heron river', 'salary policy ledger'];

describe('collections: a scoped query equals the query over a corpus of the readable documents only', () => {
  let database: Database;
  let deps: Omit<SearchDeps, 'access'>;
  const next = random(20261127);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const sentence = () => Array.from({ length: 3 + Math.floor(next() * 5) }, () => pick(WORDS)).join(' ');
  const docs: { id: string; collection: string }[] = [];

  beforeAll(async () => {
    database = await openPglite();
    const corpus: CorpusDocument[] = Array.from({ length: 9 }, (_, i) => ({
      filename: `doc-${i}.md`,
      collection: pick(COLLECTIONS),
      versions: [doc(`Doc ${i}`, section(pick(WORDS), para(sentence()), para(sentence())), para(sentence()))],
    }));
    const embedder = testEmbedder();
    const indexed = await indexCorpus(database.db, corpus, embedder);
    for (const d of corpus)
      docs.push({ id: indexed.get(d.filename)?.id ?? '', collection: d.collection ?? '' });
    // Topics linking random documents: their counts and their very presence depend on who reads.
    for (const name of ['finance', 'wildlife', 'infrastructure', 'people']) {
      const topicId = randomUUID();
      await database.db.execute(sql`INSERT INTO topics (id, name) VALUES (${topicId}::uuid, ${name})`);
      for (const d of docs) {
        if (next() < 0.4) {
          await database.db.execute(sql`INSERT INTO document_topics (document_id, topic_id, confidence)
            VALUES (${d.id}::uuid, ${topicId}::uuid, ${Math.round(next() * 100) / 100})`);
        }
      }
    }
    const config = loadConfig({ env: {} });
    // Hybrid fuses with a non-zero semantic weight, so both halves of it count.
    deps = {
      db: database.db,
      embedder,
      search: { ...config.search, hybrid: { ...config.search.hybrid, semanticWeight: 0.5 } },
    };
  });

  afterAll(async () => {
    await database?.close();
  });

  /** Everything a reader sees: searches of each kind, the document list and count, topics and their counts. */
  async function observe(access: AccessScope) {
    const scoped = { ...deps, access };
    const searches: Record<string, unknown> = {};
    for (const kind of KINDS) {
      for (const query of QUERIES) {
        const request: SearchRequest = { query, kind, limit: 8 };
        searches[`${kind}:${query}`] = (await search(scoped, request)).map((hit) => ({
          node: hit.nodeId,
          score: Number(hit.score.toFixed(9)),
        }));
      }
    }
    const list = await listDocuments(deps.db, access, { limit: 50, offset: 0 });
    const topics = await listTopics(deps.db, access, { limit: 50, offset: 0 });
    const topicDetails = await Promise.all(
      topics.items.map((t) => getTopic(deps.db, access, t.id).then((d) => [d.name, d.documentCount])),
    );
    return {
      searches,
      documents: list.items.map((d) => d.id).sort(),
      total: list.total,
      topics: topics.items.map((t) => [t.name, t.documentCount]),
      topicTotal: topics.total,
      topicDetails,
    };
  }

  /** The same observation with the unreadable documents gone (soft-deleted), read with every right. */
  async function observeWithout(readable: readonly string[]) {
    const hidden = docs.filter((d) => !readable.includes(d.collection)).map((d) => d.id);
    const ids = `{${hidden.join(',')}}`;
    await database.db.execute(sql`UPDATE documents SET deleted_at = now() WHERE id = ANY(${ids}::uuid[])`);
    try {
      return await observe(ALL_COLLECTIONS);
    } finally {
      await database.db.execute(sql`UPDATE documents SET deleted_at = NULL WHERE id = ANY(${ids}::uuid[])`);
    }
  }

  it('holds for random readable sets, for every search kind, the list, its total and topic counts', async () => {
    const sets = [
      [],
      ['hr'],
      ['eng', 'default'],
      COLLECTIONS.filter(() => next() < 0.5),
      [pick(COLLECTIONS)],
    ];
    let nonEmpty = 0;
    for (const readable of sets) {
      const scoped = await observe(readableCollections(readable));
      expect(scoped, `readable: ${readable.join(',') || '(none)'}`).toEqual(await observeWithout(readable));
      if (scoped.total > 0 && scoped.total < docs.length) nonEmpty += 1;
    }
    // The property says something only if some sets hide part of the corpus and leave the rest.
    expect(nonEmpty).toBeGreaterThan(0);
  });

  it('hides a topic whose documents are all unreadable, as if it did not exist', async () => {
    const nobody = readableCollections([]);
    expect((await listTopics(deps.db, nobody, { limit: 50, offset: 0 })).total).toBe(0);
    const all = await listTopics(deps.db, ALL_COLLECTIONS, { limit: 50, offset: 0 });
    const first = all.items[0];
    expect(first).toBeDefined();
    await expect(getTopic(deps.db, nobody, first?.id ?? '')).rejects.toThrow(/No topic/);
  });
});
