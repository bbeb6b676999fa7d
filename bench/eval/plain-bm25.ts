import { stemTerm } from '#shared/index/analyze.ts';
import { cjkRuns, isStopword, segment } from '#shared/text/segment.ts';
import type { BeirDocument } from './beir.ts';

/**
 * The reference BM25 of `../shared/eval/README.md`, independent of DropQA's analysis and index: k1
 * 0.9, b 0.4 (Anserini's defaults), title and text as one field, Chinese as character unigrams and
 * bigrams, other text as lower-cased words without a short stop list, lightly stemmed. The
 * diagnostic (`bench/eval-diagnose.ts`) ranks by it beside DropQA's full-text search.
 */
export interface PlainBm25Options {
  k1: number;
  b: number;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const RUNS = /[\p{L}\p{N}]+/gu;
const STOP = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

/** A light English stemmer: plural and a few inflection endings, as the reference's. */
function lightStem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && /(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/**
 * The reference analysis of a Chinese set: every letter or digit a character, the unigrams and the
 * bigrams of each run between spaces and punctuation ("2018年" -> 2, 0, 1, 8, 年, 20, 01, 18, 8年).
 * This reproduces the README's numbers (domainrag-dev 0.454 for its 0.452, cmrc2018-trial 0.991).
 *
 * @example chineseTokens('校长是谁') // ['校', '长', '是', '谁', '校长', '长是', '是谁']
 */
export function chineseTokens(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.normalize('NFKC').toLowerCase().matchAll(RUNS)) {
    const chars = [...run];
    out.push(...chars);
    for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
  }
  return out;
}

/**
 * The reference analysis of an English set: lower-cased words, a short stop list, lightly stemmed.
 *
 * @example englishTokens('The budgets') // ['budget']
 */
export function englishTokens(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.normalize('NFKC').toLowerCase().matchAll(RUNS))
    if (!STOP.has(word)) out.push(lightStem(word));
  return out;
}

/** The reference analysis for a corpus: Chinese when most of its entries hold Han characters. */
export function plainAnalyzer(documents: readonly BeirDocument[]): (text: string) => string[] {
  const han = documents.filter((doc) => CJK.test(`${doc.title}${doc.text}`)).length;
  return han * 2 > documents.length ? chineseTokens : englishTokens;
}

/**
 * DropQA's analysis with CJK as the reference reads it: every CJK run as its character unigrams and
 * bigrams (function words such as 的 neither a term nor in a pair), other words as `searchTerms`
 * gives them. For the diagnostic's what-if rows: the analysis alone swapped.
 *
 * @example cjkNgramTerms('数据的平台 Budgets') // ['数', '据', '平', '台', '数据', '平台', 'budget']
 */
export function cjkNgramTerms(text: string): string[] {
  const words = segment(text)
    .filter((word) => !CJK.test(word))
    .map(stemTerm);
  const grams = cjkRuns(text).flatMap((run) => {
    const chars = [...run];
    const kept = chars.map((c) => !isStopword(c));
    const pairs = chars.slice(1).flatMap((c, i) => (kept[i] && kept[i + 1] ? [`${chars[i]}${c}`] : []));
    return [...chars.filter((_, i) => kept[i]), ...pairs];
  });
  return [...grams, ...words];
}

/** An in-memory BM25 index over whole corpus entries (no splitting into paragraphs). */
export class PlainBm25 {
  private readonly ids: string[] = [];
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, [number, number][]>();
  private avgdl = 0;

  constructor(
    documents: readonly BeirDocument[],
    private readonly options: PlainBm25Options = { k1: 0.9, b: 0.4 },
    private readonly analyze: (text: string) => string[] = plainAnalyzer(documents),
  ) {
    let total = 0;
    for (const doc of documents) {
      const tokens = analyze(`${doc.title}\n${doc.text}`);
      const slot = this.ids.length;
      this.ids.push(doc.id);
      this.lengths.push(tokens.length);
      total += tokens.length;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        const list = this.postings.get(t) ?? [];
        list.push([slot, n]);
        this.postings.set(t, list);
      }
    }
    this.avgdl = total / Math.max(1, this.ids.length);
  }

  /** The ids of the `limit` best entries for a query (each distinct query term once), ties by id. */
  rank(query: string, limit: number): { id: string; score: number }[] {
    const { k1, b } = this.options;
    const n = this.ids.length;
    const scores = new Map<number, number>();
    for (const term of new Set(this.analyze(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const [slot, tf] of list) {
        const norm = k1 * (1 - b + (b * (this.lengths[slot] ?? 0)) / this.avgdl);
        scores.set(slot, (scores.get(slot) ?? 0) + (idf * tf * (k1 + 1)) / (tf + norm));
      }
    }
    return [...scores]
      .map(([slot, score]) => ({ id: this.ids[slot] ?? '', score }))
      .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
      .slice(0, limit);
  }
}
