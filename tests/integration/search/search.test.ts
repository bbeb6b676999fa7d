import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import { type Database, queryRows } from '#shared/db/index.ts';
import { ValidationError } from '#shared/errors.ts';
import {
  getChildren,
  getContextWindow,
  getDocumentStructure,
  getNode,
  type SearchDeps,
  type SearchHit,
  type SearchKind,
  search,
} from '#shared/search/index.ts';
import {
  doc,
  type IndexedDocument,
  indexCorpus,
  markDeleted,
  para,
  section,
  setCurrentVersion,
  table,
  testEmbedder,
} from '../../helpers/corpus.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';

const ZH = doc(
  '年度技术规划',
  section(
    '第3章 基础设施',
    para('本章介绍 IT 基础设施升级规划，包括云平台、网络和安全。'),
    section(
      '3.2 云平台建设',
      para('计划将核心业务迁移至混合云架构，预计投入500万预算用于容器化改造。'),
      para('容器化改造采用 Kubernetes，分三期完成。'),
      para('第三期包括监控与告警的统一。'),
    ),
  ),
  section('第4章 人员', para('团队由张三负责，下设运维组和开发组。')),
);

const PLAN_V1 = doc(
  'Data Platform Plan',
  section('Goals', para('The main goal of the project is to build a unified data platform.')),
  section('Budget', para('The budget for 2023 was 1 million dollars.')),
);

const PLAN_V2 = doc(
  'Data Platform Plan',
  section('Goals', para('The main goal of the project is to build a unified data platform.')),
  section(
    'Budget',
    para('The budget for 2024 is 2 million dollars, mostly for storage.'),
    table('| item | cost |\n| --- | --- |\n| storage | 1.5M |'),
  ),
);

const SPECIAL = doc(
  'Pricing notes',
  para("Discount is 50% off_list price; quote it as 'x'; DROP TABLE nodes;-- stays text."),
  para('The offXlist code and 500 units are unrelated.'),
);

const ALL_KINDS: SearchKind[] = ['keyword', 'fulltext', 'semantic', 'hybrid'];

describe.each(DRIVERS)('search (%s)', (driver) => {
  let database: Database;
  let ids: Map<string, IndexedDocument>;
  let deps: SearchDeps;
  const id = (name: string) => ids.get(name)?.id ?? '';

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    const embedder = testEmbedder();
    ids = await indexCorpus(
      database.db,
      [
        { filename: '规划.md', versions: [ZH] },
        { filename: 'plan.md', versions: [PLAN_V1, PLAN_V2] },
        { filename: 'special.md', versions: [SPECIAL] },
        {
          filename: 'old.md',
          versions: [
            doc('Old', para('The deleted budget note about a unified data platform and 500万预算 zebra.')),
          ],
          deleted: true,
        },
        {
          filename: 'churn.md',
          versions: [doc('Churn', para('Quokka v1 text.')), doc('Churn', para('Wombat v2 text.'))],
        },
      ],
      embedder,
    );
    deps = { db: database.db, access: ALL_COLLECTIONS, embedder, search: loadConfig({ env: {} }).search };
  });

  afterAll(async () => {
    await database?.close();
  });

  const run = (query: string, kind: SearchKind, extra: Partial<Parameters<typeof search>[1]> = {}) =>
    search(deps, { query, kind, limit: 10, ...extra });

  describe('keyword', () => {
    it('matches a keyword in content, case-insensitively by default', async () => {
      const hits = await run('KUBERNETES', 'keyword');
      expect(hits.map((h) => h.content)).toEqual(['容器化改造采用 Kubernetes，分三期完成。']);
      expect(hits[0]?.highlights).toEqual(['KUBERNETES']);
      expect(await run('KUBERNETES', 'keyword', { caseSensitive: true })).toEqual([]);
    });

    it('matches section titles and scores by the number of keywords matched', async () => {
      const hits = await run('云平台建设 Kubernetes', 'keyword');
      expect(hits.length).toBe(3);
      expect(hits[0]?.content).toContain('Kubernetes');
      expect(hits[0]?.score).toBe(2);
      expect(hits.slice(1).every((h) => h.score === 1 && h.sectionPath.includes('3.2 云平台建设'))).toBe(
        true,
      );
    });

    it('takes wildcards and SQL metacharacters in keywords literally', async () => {
      const percent = await run('50%', 'keyword');
      expect(percent.map((h) => h.content)).toEqual([expect.stringContaining('Discount is 50% off_list')]);
      expect((await run('off_list', 'keyword')).map((h) => h.documentName)).toEqual(['special.md']);
      expect((await run('off_list', 'keyword'))[0]?.content).not.toContain('offXlist');
      const injection = await run(`"'x'; DROP TABLE nodes;--"`, 'keyword');
      expect(injection).toHaveLength(1);
      const [count] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM nodes`);
      expect(Number(count?.n)).toBeGreaterThan(0);
    });

    it('matches regular expressions', async () => {
      const hits = await run('(预算|budget) for 20[0-9]{2}', 'keyword', { keywordMode: 'regex' });
      expect(hits.map((h) => h.content)).toEqual([
        'The budget for 2024 is 2 million dollars, mostly for storage.',
      ]);
    });

    it('matches a regular expression without metacharacters as the substring it spells, in any case', async () => {
      const regex = await run('容器化改造采用', 'keyword', { keywordMode: 'regex' });
      expect(regex.map((h) => h.content)).toEqual(['容器化改造采用 Kubernetes，分三期完成。']);
      expect(await run('容器化改造采用', 'keyword')).toEqual(regex);
      expect((await run('KUBERNETES', 'keyword', { keywordMode: 'regex' })).map((h) => h.content)).toContain(
        '容器化改造采用 Kubernetes，分三期完成。',
      );
      expect(await run('KUBERNETES', 'keyword', { keywordMode: 'regex', caseSensitive: true })).toEqual([]);
    });

    it('rejects an invalid regular expression with a clear validation error', async () => {
      const error = await run('(unclosed', 'keyword', { keywordMode: 'regex' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toMatch(/invalid regular expression '\(unclosed'/);
    });

    it('finds near spellings in fuzzy mode', async () => {
      const hits = await run('platfrom', 'keyword', { keywordMode: 'fuzzy' });
      expect(hits[0]?.content).toContain('unified data platform');
      expect(hits[0]?.score).toBeGreaterThan(1);
    });
  });

  describe('full-text and semantic', () => {
    it.each(['fulltext', 'semantic', 'hybrid'] as const)(
      'finds the Chinese paragraph with %s search',
      async (kind) => {
        const hits = await run('混合云架构 500万预算', kind);
        expect(hits[0]?.content).toBe('计划将核心业务迁移至混合云架构，预计投入500万预算用于容器化改造。');
        expect(hits[0]?.documentName).toBe('规划.md');
        expect(hits[0]?.path).toBe('规划.md > 第3章 基础设施 > 3.2 云平台建设');
      },
    );

    it.each(['fulltext', 'semantic', 'hybrid'] as const)(
      'finds the English paragraph with %s search',
      async (kind) => {
        const hits = await run('unified data platform goal', kind);
        expect(hits[0]?.content).toBe('The main goal of the project is to build a unified data platform.');
        expect(hits[0]?.sectionPath).toEqual(['Goals']);
        expect(hits[0]?.version).toBe(2);
      },
    );

    it('scores semantic hits by cosine similarity, best first', async () => {
      const hits = await run('unified data platform', 'semantic');
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(hit.score).toBeGreaterThanOrEqual(-1);
        expect(hit.score).toBeLessThanOrEqual(1 + 1e-6);
        expect(hit.relevance).toBe(hit.score);
      }
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    });

    it('gives every hybrid hit a relevance and a fused score', async () => {
      const hits = await run('budget storage', 'hybrid');
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(hit.relevance).toEqual(expect.any(Number));
        // A convex combination of normalised BM25 and cosine.
        expect(hit.score).toBeGreaterThanOrEqual(0);
        expect(hit.score).toBeLessThanOrEqual(1);
      }
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    });
  });

  describe('scope and filters', () => {
    it.each(ALL_KINDS)('never returns a deleted document (%s)', async (kind) => {
      for (const query of ['zebra deleted budget note', '500万预算', 'unified data platform']) {
        const hits = await run(query, kind);
        expect(hits.some((h) => h.documentName === 'old.md')).toBe(false);
      }
    });

    it.each(ALL_KINDS)(
      'searches the current version by default and another on request (%s)',
      async (kind) => {
        const current = await run('budget 2023 2024 million dollars', kind);
        expect(current.some((h) => h.content.includes('2023'))).toBe(false);
        const first = await run('budget 2023 2024 million dollars', kind, { filters: { version: 1 } });
        expect(first.length).toBeGreaterThan(0);
        expect(first.every((h) => h.version === 1)).toBe(true);
        expect(first.some((h) => h.content.includes('2023'))).toBe(true);
      },
    );

    it.each(ALL_KINDS)('restricts results to the given documents (%s)', async (kind) => {
      const hits = await run('budget 预算 platform 平台', kind, {
        filters: { documentIds: [id('规划.md')] },
      });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.documentId === id('规划.md'))).toBe(true);
    });

    it('restricts results to documents of the given topics', async () => {
      const [topic] = await queryRows<{ id: string }>(
        database.db,
        sql`INSERT INTO topics (name) VALUES ('基础设施') RETURNING id`,
      );
      await database.db.execute(
        sql`INSERT INTO document_topics (document_id, topic_id) VALUES (${id('规划.md')}::uuid, ${topic?.id}::uuid)`,
      );
      const hits = await run('budget 预算 platform 平台', 'fulltext', {
        filters: { topicIds: [topic?.id ?? ''] },
      });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.documentId === id('规划.md'))).toBe(true);
    });

    it('restricts results to leaves of sections in the given categories', async () => {
      await database.db.execute(
        sql`UPDATE nodes SET category = 'method' WHERE document_id = ${id('规划.md')}::uuid AND title = '3.2 云平台建设'`,
      );
      for (const kind of ['fulltext', 'keyword', 'hybrid'] as const) {
        const hits = await run('预算 容器化 监控 团队 基础设施', kind, {
          filters: { categories: ['method'] },
        });
        expect(hits.length, kind).toBeGreaterThan(0);
        expect(
          hits.every((h) => h.sectionPath.at(-1) === '3.2 云平台建设'),
          kind,
        ).toBe(true);
      }
    });

    it('rejects a malformed document id', async () => {
      await expect(run('budget', 'fulltext', { filters: { documentIds: ['nope'] } })).rejects.toThrow(
        ValidationError,
      );
    });

    it('follows version changes and deletions at once', async () => {
      const churn = id('churn.md');
      const names = async (query: string) => (await run(query, 'fulltext')).map((h) => h.content);
      expect(await names('wombat quokka')).toEqual(['Wombat v2 text.']);
      await setCurrentVersion(database.db, churn, 1);
      expect(await names('wombat quokka')).toEqual(['Quokka v1 text.']);
      await markDeleted(database.db, churn);
      expect(await names('wombat quokka')).toEqual([]);
      for (const kind of ALL_KINDS) {
        expect((await run('wombat quokka', kind)).some((h) => h.documentId === churn)).toBe(false);
      }
    });
  });

  describe('breadcrumbs and browsing', () => {
    it('carries ancestor titles, summaries and depths outermost first', async () => {
      const [hit] = await run('容器化改造 Kubernetes 三期', 'fulltext');
      expect(hit?.breadcrumb.map((b) => [b.title, b.depth])).toEqual([
        ['第3章 基础设施', 1],
        ['3.2 云平台建设', 2],
      ]);
      expect(hit?.breadcrumb.every((b) => typeof b.summary === 'string' && b.summary.length > 0)).toBe(true);
      const [top] = await run('本章介绍', 'keyword');
      expect(top?.breadcrumb.map((b) => b.title)).toEqual(['第3章 基础设施']);
    });

    it('returns a node, its children and its neighbours in reading order', async () => {
      const [hit] = (await run('Kubernetes', 'keyword')) as SearchHit[];
      const node = await getNode(database.db, ALL_COLLECTIONS, hit?.nodeId ?? '');
      expect(node.content).toBe(hit?.content);
      const siblings = await getChildren(database.db, ALL_COLLECTIONS, node.parentId ?? '');
      expect(siblings.map((s) => s.content?.slice(0, 6))).toEqual([
        '计划将核心业',
        '容器化改造采',
        '第三期包括监',
      ]);
      const window = await getContextWindow(database.db, ALL_COLLECTIONS, node.id, 2, 1);
      expect(window.map((n) => n.content?.slice(0, 6))).toEqual([
        '本章介绍 I',
        '计划将核心业',
        '容器化改造采',
        '第三期包括监',
      ]);
      await expect(
        getNode(database.db, ALL_COLLECTIONS, '00000000-0000-4000-8000-000000000000'),
      ).rejects.toThrow(/No node/);
    });

    it('describes a document as a tree of sections with counts', async () => {
      const structure = await getDocumentStructure(database.db, ALL_COLLECTIONS, id('plan.md'));
      expect(structure.version).toBe(2);
      expect(structure.title).toBe('Data Platform Plan');
      expect(structure.counts).toEqual({ sections: 2, paragraphs: 2, tables: 1, images: 0 });
      expect(structure.sections.map((s) => [s.title, s.counts.paragraphs, s.counts.tables])).toEqual([
        ['Goals', 1, 0],
        ['Budget', 1, 1],
      ]);
      const zh = await getDocumentStructure(database.db, ALL_COLLECTIONS, id('规划.md'));
      expect(zh.sections[0]?.children.map((s) => s.title)).toEqual(['3.2 云平台建设']);
      expect(zh.sections[0]?.counts.paragraphs).toBe(4);
      expect(zh.sections[0]?.summary).toEqual(expect.any(String));
      const v1 = await getDocumentStructure(database.db, ALL_COLLECTIONS, id('plan.md'), 1);
      expect(v1.counts.tables).toBe(0);
      await expect(getDocumentStructure(database.db, ALL_COLLECTIONS, id('old.md'))).rejects.toThrow(
        /No document/,
      );
      await expect(getDocumentStructure(database.db, ALL_COLLECTIONS, id('plan.md'), 9)).rejects.toThrow(
        /no version 9/,
      );
    });
  });
});
