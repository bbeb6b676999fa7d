import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import type { ParsedDocument, TreeNode } from '#shared/parse/types.ts';
import { fulltextSearch } from '#shared/search/fulltext.ts';
import { warmSearchIndex } from '#shared/search/memory-sync.ts';
import type { SearchDeps, SearchFilters } from '#shared/search/types.ts';
import { isStopword, segment } from '#shared/text/segment.ts';
import {
  type CorpusDocument,
  doc,
  type IndexedDocument,
  indexCorpus,
  para,
  section,
} from '../../helpers/corpus.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';

const CORPUS: CorpusDocument[] = [
  {
    filename: 'en.md',
    versions: [
      doc(
        'Plan',
        para('Budget overview before any heading: budget, budget.'),
        section('Budget', para('The budget grew and the budget was approved.'), para('Costs of storage.')),
        section('Team', section('Hiring', para('Hiring budget for the team, team and team.'))),
      ),
    ],
  },
  {
    filename: 'zh.md',
    versions: [
      doc(
        '规划',
        section('预算', para('今年预算为500万，预算增长很快。'), para('容器化改造的成本。')),
        section('团队', para('团队由张三负责，预算另议。')),
      ),
    ],
  },
  {
    filename: 'versions.md',
    versions: [
      doc('V', section('Budget', para('Old budget text.'))),
      doc('V', section('Budget', para('New budget and storage text.')), para('storage storage team')),
    ],
  },
  { filename: 'gone.md', versions: [doc('G', para('budget storage 预算 team deleted'))], deleted: true },
  {
    // Term frequencies from 1 to 255 (a tsvector keeps at most 256 positions per lexeme).
    filename: 'repeat.md',
    versions: [doc('R', ...[1, 2, 3, 37, 128, 255].map((n) => para(`${'zeta '.repeat(n)}budget ${n}`)))],
  },
];

const QUERIES = [
  'budget storage',
  '预算 成本',
  'budget 预算 team',
  'Team hiring',
  'zeta budget',
  '容器改造的费用',
  '张三的团队',
];

/** One field of a leaf: its terms, and those of the title and section path (weighted A in the index). */
interface Field {
  tokens: string[];
  titleTokens: string[];
}

interface Leaf {
  documentId: string;
  content: string;
  /** The word field, and the field of the Han character unigrams and bigrams. */
  words: Field;
  grams: Field;
}

/** Leaves of a tree with the document title and their ancestor section titles. */
function leaves(tree: ParsedDocument): { path: string[]; content: string }[] {
  const out: { path: string[]; content: string }[] = [];
  const walk = (node: TreeNode, path: string[]) => {
    if (node.type === 'section') for (const child of node.children) walk(child, [...path, node.title]);
    else out.push({ path, content: node.type === 'image' ? node.alt : node.text });
  };
  for (const child of tree.children) walk(child, [tree.title]);
  return out;
}

/** The scope's leaves, tokenized independently: title and section path then content, as the index weights them. */
function scopeLeaves(ids: Map<string, IndexedDocument>, filters: SearchFilters): Leaf[] {
  const out: Leaf[] = [];
  for (const spec of CORPUS) {
    const indexed = ids.get(spec.filename);
    if (!indexed || spec.deleted) continue;
    if (filters.documentIds && !filters.documentIds.includes(indexed.id)) continue;
    const tree = spec.versions[(filters.version ?? indexed.current) - 1];
    if (!tree) continue;
    for (const leaf of leaves(tree)) {
      const field = (analyze: (text: string) => string[]): Field => ({
        tokens: [...analyze(leaf.path.join(' > ')), ...analyze(leaf.content)],
        titleTokens: analyze(leaf.path.join(' > ')),
      });
      out.push({ documentId: indexed.id, content: leaf.content, words: field(terms), grams: field(grams) });
    }
  }
  return out;
}

/** jieba's words and the other words, as `segment` gives them. */
function terms(text: string): string[] {
  return segment(text);
}

/** Each Han character and each pair of neighbours, none holding a function word, marked apart from words. */
function grams(text: string): string[] {
  return (text.match(/\p{Script=Han}+/gu) ?? []).flatMap((run) => {
    const chars = [...run];
    const kept = (ch: string | undefined) => ch !== undefined && !isStopword(ch);
    const singles = chars.filter(kept);
    const pairs = chars.slice(1).flatMap((ch, i) => (kept(chars[i]) && kept(ch) ? [`${chars[i]}${ch}`] : []));
    return [...singles, ...pairs].map((gram) => `#${gram}`);
  });
}

interface FieldParams {
  k1: number;
  b: number;
  idfExponent: number;
  titleWeight: number;
}

/**
 * Okapi BM25 over two fields written out plainly: its own counting, no shared code but the segmenter
 * and its stop words. Per field, idf raised to `idfExponent`, title tokens counted `titleWeight`
 * times, the field's own length and average; a leaf's score is the sum of its two fields', times
 * 1 + `titleCoverage` x the squared share of its title and section path's worth (idf^exponent of each
 * of their distinct terms, in its field) that the query's terms hold.
 */
function expectedScores(
  scope: Leaf[],
  query: string,
  params: FieldParams & { titleCoverage: number; grams: FieldParams },
): Map<string, number> {
  const n = scope.length;
  const scores = new Map<string, number>();
  const titled = new Map<string, number>();
  const titleWorth = new Map<string, number>();
  const fields = [
    { of: (leaf: Leaf) => leaf.words, queryTerms: [...new Set(terms(query))], params },
    { of: (leaf: Leaf) => leaf.grams, queryTerms: [...new Set(grams(query))], params: params.grams },
  ];
  const keyOf = (leaf: Leaf) => `${leaf.documentId}|${leaf.content}`;
  for (const { of, queryTerms, params: p } of fields) {
    const { k1, b, idfExponent, titleWeight } = p;
    const avgdl = scope.reduce((sum, leaf) => sum + of(leaf).tokens.length, 0) / n || 1;
    for (const leaf of scope) {
      const field = of(leaf);
      for (const term of new Set(field.titleTokens)) {
        const df = scope.filter((other) => of(other).tokens.includes(term)).length;
        const worth = Math.log(1 + (n - df + 0.5) / (df + 0.5)) ** idfExponent;
        titleWorth.set(keyOf(leaf), (titleWorth.get(keyOf(leaf)) ?? 0) + worth);
      }
      let score = 0;
      let matched = false;
      for (const term of queryTerms) {
        const count = field.tokens.filter((t) => t === term).length;
        if (count === 0) continue;
        matched = true;
        const inTitle = field.titleTokens.filter((t) => t === term).length;
        const tf = count + (titleWeight - 1) * inTitle;
        const df = scope.filter((other) => of(other).tokens.includes(term)).length;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5)) ** idfExponent;
        score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * field.tokens.length) / avgdl));
        if (inTitle > 0) titled.set(keyOf(leaf), (titled.get(keyOf(leaf)) ?? 0) + idf);
      }
      if (matched) scores.set(keyOf(leaf), (scores.get(keyOf(leaf)) ?? 0) + score);
    }
  }
  for (const [key, score] of scores) {
    const share = Math.min(1, (titled.get(key) ?? 0) / (titleWorth.get(key) ?? 1)) ** 2;
    scores.set(key, score * (1 + params.titleCoverage * share));
  }
  return scores;
}

describe.each(DRIVERS)('fulltextSearch BM25 (%s)', (driver) => {
  let database: Database;
  let ids: Map<string, IndexedDocument>;
  const config = loadConfig({
    env: {},
    overrides: {
      search: {
        bm25: {
          k1: 1.5,
          b: 0.6,
          idfExponent: 1.7,
          titleWeight: 3,
          titleCoverage: 0.7,
          grams: { k1: 1.1, b: 0.3, idfExponent: 1.2, titleWeight: 2 },
        },
        feedback: { documents: 0 },
      },
    },
  });

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    ids = await indexCorpus(database.db, CORPUS);
    // Loaded first, so that the memory index, not SQL while it loads, ranks the default scope.
    await warmSearchIndex(database.db);
  });

  afterAll(async () => {
    await database?.close();
  });

  const deps = (memoryIndex: boolean): SearchDeps => ({
    db: database.db,
    access: ALL_COLLECTIONS,
    embedder: { model: 'unused', dimensions: 8, embed: async () => [] },
    search: { ...config.search, bm25: { ...config.search.bm25, memoryIndex } },
  });

  const scopes: [string, boolean, () => SearchFilters][] = [
    ['the default scope from memory', true, () => ({})],
    ['the default scope in SQL', false, () => ({})],
    [
      'a document filter',
      true,
      () => ({ documentIds: ['en.md', 'versions.md', 'repeat.md'].map((name) => ids.get(name)?.id ?? '') }),
    ],
    [
      'a document filter in SQL',
      false,
      () => ({ documentIds: ['en.md', 'versions.md', 'repeat.md'].map((name) => ids.get(name)?.id ?? '') }),
    ],
    ['a version filter', true, () => ({ version: 1 })],
  ];

  it.each(scopes)('scores %s as an independent computation does', async (_name, memoryIndex, filtersOf) => {
    const filters = filtersOf();
    for (const query of QUERIES) {
      const expected = expectedScores(scopeLeaves(ids, filters), query, config.search.bm25);
      const hits = await fulltextSearch(deps(memoryIndex), query, filters, 100);
      expect(hits.length, query).toBe(expected.size);
      for (const hit of hits) {
        const want = expected.get(`${hit.documentId}|${hit.content}`);
        expect(want, `${query}: ${hit.content}`).toBeDefined();
        expect(Math.abs(hit.score - (want ?? 0)), `${query}: ${hit.content}`).toBeLessThan(1e-6);
      }
      const scores = hits.map((h) => h.score);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
    }
  });
});
