import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import { fulltextSearch, queryTerms } from '#shared/search/fulltext.ts';
import { rankFulltextSql } from '#shared/search/fulltext-sql.ts';
import { hybridSearch } from '#shared/search/hybrid.ts';
import { warmSearchIndex } from '#shared/search/memory-sync.ts';
import type { SearchDeps } from '#shared/search/types.ts';
import {
  type CorpusDocument,
  doc,
  type IndexedDocument,
  indexCorpus,
  para,
  testEmbedder,
} from '../../helpers/corpus.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';

/**
 * A page whose title names what a question asks about (an admissions page, a paper's title) and a
 * page whose text merely mentions the same words more often (a news item): the title's page comes
 * first with title coverage (`search.bm25.titleCoverage`, here at weight 1), the mentioning page
 * without it.
 */
const WEIGHT = 1;
const CASES = [
  {
    name: 'a Chinese admissions page',
    query: '中国人民大学英语保送生招生计划人数是多少？',
    titled: '中国人民大学2023年外语类保送生招生简章',
    mentions: '新闻动态',
    pages: [
      ['中国人民大学2023年外语类保送生招生简章', '报名时间为3月1日至3月10日，英语专业计划录取40人。'],
      [
        '新闻动态',
        '中国人民大学举行保送生座谈会，英语保送生代表发言。学校介绍了保送生招生计划，保送生和家长参加了座谈。',
      ],
      ['本科招生章程', '学校按照招生计划录取考生，录取结果在网上公布。'],
      ['校园生活', '学生在食堂吃饭，在图书馆读书，在操场锻炼身体。'],
      ['学院介绍', '外国语学院设有英语、法语、德语、日语等专业。'],
    ],
  },
  {
    name: 'an English paper title',
    query: 'Does serum sclerostin predict hip fractures?',
    titled: 'Serum sclerostin and hip fractures',
    mentions: 'Bone news',
    pages: [
      [
        'Serum sclerostin and hip fractures',
        'Higher levels came before breaks in women followed for ten years.',
      ],
      [
        'Bone news',
        'Serum sclerostin, a bone protein: whether serum sclerostin can predict hip fractures, and how to predict hip fractures, was discussed.',
      ],
      ['Exercise', 'Exercise lowers the risk of falls in older adults.'],
      ['Vitamin D', 'Vitamin D levels were lower in older patients.'],
      ['Diet', 'Protein intake and bone density in adults.'],
    ],
  },
];

describe.each(DRIVERS.flatMap((driver) => CASES.map((c) => ({ driver, ...c }))))(
  'a page whose title names the subject: $name ($driver)',
  ({ driver, query, titled, mentions, pages }) => {
    let database: Database;
    let ids: Map<string, IndexedDocument>;
    const config = loadConfig({ env: {} });
    const corpus: CorpusDocument[] = pages.map(([title = '', text = ''], i) => ({
      filename: `p${i}.md`,
      versions: [doc(title, para(text))],
    }));

    beforeAll(async () => {
      database = await openTestDatabase(driver);
      ids = await indexCorpus(database.db, corpus);
      await warmSearchIndex(database.db);
    }, 120_000);

    afterAll(async () => {
      await database?.close();
    });

    const deps = (titleCoverage: number, memoryIndex: boolean): SearchDeps => ({
      db: database.db,
      access: ALL_COLLECTIONS,
      embedder: testEmbedder(),
      search: { ...config.search, bm25: { ...config.search.bm25, titleCoverage, memoryIndex } },
    });
    const titleOf = (documentId: string) =>
      corpus.find((c) => ids.get(c.filename)?.id === documentId)?.versions[0]?.title;

    it('outranks a page that merely mentions it, in memory and in SQL, full-text and hybrid', async () => {
      for (const memoryIndex of [true, false]) {
        const hits = await fulltextSearch(deps(WEIGHT, memoryIndex), query, {}, 5);
        expect(
          hits.slice(0, 2).map((h) => titleOf(h.documentId)),
          `memory ${memoryIndex}`,
        ).toEqual([titled, mentions]);
        const hybrid = await hybridSearch(deps(WEIGHT, memoryIndex), query, {}, 5);
        expect(titleOf(hybrid[0]?.documentId ?? ''), `hybrid, memory ${memoryIndex}`).toBe(titled);
      }
    });

    it('is what puts it first: without title coverage the mentioning page wins', async () => {
      const hits = await fulltextSearch(deps(0, true), query, {}, 5);
      expect(titleOf(hits[0]?.documentId ?? '')).toBe(mentions);
    });

    it('is left out in SQL on a scope of more leaves than its bound, where a pass over them costs too much', async () => {
      const terms = queryTerms(query);
      const asked = new Set(terms.map((t) => t.term));
      const { bm25 } = config.search;
      const scores = async (titleCoverage: number, coverageLeaves?: number) =>
        (
          await rankFulltextSql(
            database.db,
            ALL_COLLECTIONS,
            terms,
            {},
            50,
            { ...bm25, titleCoverage },
            asked,
            {
              coverageLeaves,
            },
          )
        ).map((hit) => `${hit.nodeId} ${hit.score.toFixed(9)}`);
      const plain = await scores(0);
      expect(await scores(WEIGHT, pages.length - 1)).toEqual(plain);
      expect(await scores(WEIGHT)).not.toEqual(plain);
    });

    it('scores alike in memory and in SQL', async () => {
      const view = (hits: Awaited<ReturnType<typeof fulltextSearch>>) =>
        hits.map((h) => `${h.score.toFixed(6)} ${titleOf(h.documentId)}`).sort();
      const memory = await fulltextSearch(deps(WEIGHT, true), query, {}, 50);
      const inSql = await fulltextSearch(deps(WEIGHT, false), query, {}, 50);
      expect(view(inSql)).toEqual(view(memory));
    });
  },
);

/**
 * Pseudo-relevance feedback learns from the leaves the text matches best, by BM25 alone: title
 * coverage orders the final ranking, not the leaves whose words expand the question. With one
 * feedback leaf, the page mentioning the question's words (BM25's best) lends them ("osteoporosis",
 * "researchers") and finds the clinics page; the titled page, first with coverage, would lend its
 * own ("older", "women") and find the menopause page.
 */
describe.each(DRIVERS)('feedback under title coverage (%s)', (driver) => {
  const query = 'Does serum sclerostin predict hip fractures?';
  const pages = [
    ['Serum sclerostin and hip fractures', 'Higher levels came before breaks in older women.'],
    [
      'Bone news',
      'Serum sclerostin, a bone protein: whether serum sclerostin can predict hip fractures, and how to predict hip fractures, was discussed by osteoporosis researchers.',
    ],
    ['Osteoporosis clinics', 'Osteoporosis researchers opened two clinics.'],
    ['Menopause', 'Older women report hot flashes.'],
    ['Exercise', 'Exercise lowers the risk of falls.'],
    ['Vitamin D', 'Vitamin D was measured in winter.'],
    ['Diet', 'Protein intake and bone density.'],
    ['Sleep', 'Sleep duration and mood in students.'],
    // Enough other pages that a word of two pages is rare enough to expand with (`MAX_EXPANSION_SHARE`).
    ...[
      'Rivers',
      'Glaciers',
      'Deserts',
      'Forests',
      'Islands',
      'Volcanoes',
      'Lakes',
      'Canyons',
      'Reefs',
      'Meadows',
      'Caves',
      'Dunes',
    ].map((title) => [title, `${title} of the northern regions were mapped.`]),
  ];
  let database: Database;
  let titleOf: (documentId: string) => string | undefined;
  const config = loadConfig({ env: {} });

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    const corpus = pages.map(([title = '', text = ''], i) => ({
      filename: `p${i}.md`,
      versions: [doc(title, para(text))],
    }));
    const ids = await indexCorpus(database.db, corpus);
    titleOf = (documentId) => corpus.find((c) => ids.get(c.filename)?.id === documentId)?.versions[0]?.title;
    await warmSearchIndex(database.db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const found = async (titleCoverage: number, documents: number, memoryIndex: boolean) => {
    const deps: SearchDeps = {
      db: database.db,
      access: ALL_COLLECTIONS,
      embedder: testEmbedder(),
      search: {
        ...config.search,
        bm25: { ...config.search.bm25, titleCoverage, memoryIndex },
        feedback: { ...config.search.feedback, documents, terms: 20 },
      },
    };
    return (await fulltextSearch(deps, query, {}, 50)).map((h) => titleOf(h.documentId));
  };

  it('learns from the leaves BM25 ranks first, in memory and in SQL', async () => {
    for (const memoryIndex of [true, false]) {
      const at = `memory ${memoryIndex}`;
      expect((await found(0, 1, memoryIndex))[0], at).toBe('Bone news');
      const titles = await found(WEIGHT, 1, memoryIndex);
      expect(titles[0], at).toBe('Serum sclerostin and hip fractures');
      expect(titles, at).toContain('Osteoporosis clinics');
      expect(titles, at).not.toContain('Menopause');
      // The question's own words alone find neither.
      expect(await found(WEIGHT, 0, memoryIndex), at).not.toContain('Osteoporosis clinics');
    }
  });
});
