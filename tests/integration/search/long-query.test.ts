import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import { searchTerms } from '#shared/index/analyze.ts';
import { fulltextSearch, MAX_QUERY_TERMS, queryTerms } from '#shared/search/fulltext.ts';
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
 * Long natural queries (a 25-word claim, a long Chinese question) whose common words ("older adults",
 * "higher", "blood", "levels", "associated", "risk"; 过去几十年, 政府, 发展, 提高, 水平) match many
 * passages, while a few rare terms (sclerostin, hip fractures; 稀土, 配额) name the one they are about.
 */
const CLAIM =
  'Older adults with higher blood levels of the protein sclerostin are associated with an increased risk of hip fractures and lower bone density over time.';
const QUESTION =
  '在过去几十年里，这个国家的政府主要通过哪些方式来发展经济并且提高人民的生活水平，其中稀土出口配额起了什么作用？';

/**
 * Seventy distinct everyday words before a question: a pasted text longer than the 64 terms a query
 * is searched by (`MAX_QUERY_TERMS`), whose rare terms stand at its end.
 */
const FILLER_EN =
  'government companies schools hospitals banks factories villages cities roads railways ports airports farms forests rivers oceans climate pollution waste food vegetables fruit meat clothing furniture cars phones computers software chips steel coal oil gas electricity water housing energy science technology tourism agriculture industry commerce finance culture sports health law security society population employment income wages taxes budgets investment consumption markets prices trade diplomacy defence police courts media networks television radio newspapers museums libraries theatres parks gardens';
const FILLER_ZH =
  '政府、企业、学校、医院、银行、工厂、农村、城市、交通、医疗、教育、环境、住房、能源、科技、旅游、农业、工业、商业、金融、文化、体育、卫生、法律、安全、社会、人口、就业、工资、税收、财政、投资、消费、市场、价格、贸易、外交、国防、军队、警察、法院、媒体、网络、电力、铁路、公路、机场、港口、水利、森林、草原、海洋、河流、气候、污染、垃圾、粮食、蔬菜、水果、服装、家电、汽车、手机、电脑、软件、芯片、钢铁、煤炭、石油、天然气';

const ENGLISH: [string, string][] = [
  [
    'Sclerostin and hip fractures',
    'Serum sclerostin predicted hip fractures in women followed for ten years.',
  ],
  [
    'Blood pressure in older adults',
    'Older adults with higher blood pressure levels over time are associated with an increased risk of stroke and lower memory scores.',
  ],
  ['Diet', 'Higher protein intake is associated with lower blood sugar levels in adults.'],
  ['Exercise', 'Exercise over time lowers the risk of heart disease in older adults.'],
  ['Sleep', 'Adults who sleep less show increased blood levels of cortisol.'],
  ['Smoking', 'Smoking is associated with an increased risk of lung cancer and higher mortality.'],
  ['Vitamin D', 'Vitamin D levels were lower in older patients with increased risk of falls.'],
  ['Kidney', 'Protein in the urine is associated with kidney disease over time.'],
  ['Obesity', 'Obesity increases blood levels of inflammatory markers and the risk of diabetes.'],
  ['Alcohol', 'Higher alcohol intake is associated with higher blood pressure in adults.'],
  ['Cholesterol', 'Lower cholesterol levels over time reduce the risk of heart attacks.'],
  ['Anaemia', 'Older adults with lower iron levels had increased fatigue.'],
];

const CHINESE: [string, string][] = [
  ['稀土', '稀土出口配额制度于一九九八年设立，用来限制开采。'],
  ['经济发展', '过去几十年里，人民的收入在提高，经济也在发展，这是国家和政府的主要方式。'],
  ['教育', '过去几十年里，政府通过多种方式提高教育水平。'],
  ['农业', '农业发展提高了农民的生活水平。'],
  ['交通', '过去几十年里，国家修建铁路，主要是为了发展交通。'],
  ['医疗', '人民的医疗水平在过去几十年里不断提高。'],
  ['外贸', '出口增长推动了经济发展。'],
  ['城市', '过去几十年里，城市居民的生活方式发生了变化。'],
  ['能源', '政府提高了能源利用的水平。'],
  ['科技', '科技进步是经济发展的主要动力。'],
  ['旅游', '过去几十年里，旅游业成为国家经济的重要部分。'],
  ['住房', '住房政策提高了人民的居住水平。'],
];

const corpus = (passages: [string, string][]): CorpusDocument[] =>
  passages.map(([title, text], i) => ({ filename: `p${i}.md`, versions: [doc(title, para(text))] }));

const CASES = [
  {
    name: 'a 25-word English claim',
    corpus: corpus(ENGLISH),
    query: CLAIM,
    right: 'Sclerostin and hip fractures',
    drowning: 'Blood pressure in older adults',
    short: ['hip fractures', 'sclerostin blood'],
    pasted: `${FILLER_EN}. ${CLAIM}`,
  },
  {
    name: 'a long Chinese question',
    corpus: corpus(CHINESE),
    query: QUESTION,
    right: '稀土',
    drowning: '经济发展',
    short: ['稀土出口', '政府 水平'],
    pasted: `${FILLER_ZH}。${QUESTION}`,
  },
];

describe.each(DRIVERS.flatMap((driver) => CASES.map((c) => ({ driver, ...c }))))(
  'long queries are not drowned by their common words: $name ($driver)',
  ({ driver, corpus, query, right, drowning, short, pasted }) => {
    let database: Database;
    let ids: Map<string, IndexedDocument>;
    const config = loadConfig({ env: {} });

    beforeAll(async () => {
      database = await openTestDatabase(driver);
      ids = await indexCorpus(database.db, corpus);
      // Loaded first, so that the memory index, not SQL while it loads, ranks the default scope.
      await warmSearchIndex(database.db);
    }, 120_000);

    afterAll(async () => {
      await database?.close();
    });

    const deps = (search: Partial<SearchDeps['search']> = {}, memoryIndex = true): SearchDeps => ({
      db: database.db,
      access: ALL_COLLECTIONS,
      embedder: testEmbedder(),
      search: {
        ...config.search,
        ...search,
        bm25: { ...config.search.bm25, ...search.bm25, memoryIndex },
      },
    });
    /** Plain Okapi BM25, as full-text ranked before idf was sharpened and title coverage. */
    const plain = {
      bm25: { ...config.search.bm25, idfExponent: 1, titleWeight: 1, titleCoverage: 0 },
      feedback: { ...config.search.feedback, documents: 0 },
    };
    const titleOf = (documentId: string) =>
      corpus.find((c) => ids.get(c.filename)?.id === documentId)?.versions[0]?.title;

    it('finds the passage of its rare terms first, in memory and in SQL', async () => {
      for (const memoryIndex of [true, false]) {
        const hits = await fulltextSearch(deps({}, memoryIndex), query, {}, 5);
        expect(titleOf(hits[0]?.documentId ?? ''), `full-text, memory index ${memoryIndex}`).toBe(right);
        const hybrid = await hybridSearch(deps({}, memoryIndex), query, {}, 5);
        expect(titleOf(hybrid[0]?.documentId ?? ''), `hybrid, memory index ${memoryIndex}`).toBe(right);
      }
      // Plain BM25 lets the passage that shares most common words win: what the defaults prevent.
      const before = await fulltextSearch(deps(plain), query, {}, 5);
      expect(titleOf(before[0]?.documentId ?? '')).toBe(drowning);
    });

    it('keeps the rare terms at the end of a text longer than the query terms searched, in memory and in SQL', async () => {
      expect(queryTerms(pasted).length).toBeGreaterThan(MAX_QUERY_TERMS);
      for (const memoryIndex of [true, false]) {
        const hits = await fulltextSearch(deps({}, memoryIndex), pasted, {}, 5);
        expect(titleOf(hits[0]?.documentId ?? ''), `memory index ${memoryIndex}`).toBe(right);
      }
    });

    it('ranks alike in memory and in SQL, with feedback expansion', async () => {
      for (const text of [query, pasted, ...short]) {
        // Every passage that matches (the corpus is small), so equal scores cannot cut differently.
        const memory = await fulltextSearch(deps({}, true), text, {}, 50);
        const inSql = await fulltextSearch(deps({}, false), text, {}, 50);
        // Equal scores may differ in the last bits between the two computations: compared rounded.
        const view = (hits: typeof memory) =>
          hits.map((h) => `${h.score.toFixed(6)} ${titleOf(h.documentId)} ${h.highlights?.join(',')}`).sort();
        expect(view(inSql), text).toEqual(view(memory));
        expect(inSql.map((h) => h.score)).toEqual([...inSql.map((h) => h.score)].sort((a, b) => b - a));
      }
    });

    it('counts a word the query repeats once', async () => {
      const [text = ''] = short.slice(-1);
      const once = await fulltextSearch(deps(), text, {}, 10);
      const repeated = await fulltextSearch(deps(), `${text} ${text} ${text.split(' ')[1]}`, {}, 10);
      expect(repeated.length).toBeGreaterThan(0);
      expect(repeated.map((h) => [h.nodeId, h.score])).toEqual(once.map((h) => [h.nodeId, h.score]));
    });

    it('highlights the words of the query, not the terms feedback added', async () => {
      const [text = ''] = short.slice(-1);
      const words = new Set(searchTerms(text));
      const hits = await fulltextSearch(deps(), text, {}, 20);
      expect(hits[0]?.highlights?.length).toBeGreaterThan(0);
      for (const hit of hits) for (const term of hit.highlights ?? []) expect(words).toContain(term);
    });
  },
);
