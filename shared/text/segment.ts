import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';

let jieba: Jieba | undefined;

/** Han, Hiragana/Katakana and Hangul runs go through jieba; everything else is split on non-word characters. */
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const CJK_RUN = new RegExp(`[${CJK}]`, 'u');
const RUNS = new RegExp(`([${CJK}]+)|((?:(?![${CJK}])[\\p{L}\\p{N}_])+)`, 'gu');
const MAX_TOKEN_LENGTH = 60;

const STOPWORDS = new Set([
  // English function words
  ...'a an and are as at be but by for from has have if in into is it its of on or so that the their then there these this to was were will with'.split(
    ' ',
  ),
  // Chinese particles and function words
  ...'的 了 是 在 和 与 及 或 等 也 就 都 而 之 其 这 那 着 吗 呢 吧 啊 个'.split(' '),
]);

/**
 * The native module and its 5 MB dictionary load on the first CJK text, not at import: a process
 * that never segments Chinese (a Lambda answering an English question) starts without them.
 */
function segmenter(): Jieba {
  if (!jieba) {
    const require = createRequire(import.meta.url);
    const { Jieba: JiebaClass } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict.js') as typeof import('@node-rs/jieba/dict.js');
    jieba = JiebaClass.withDict(dict);
  }
  return jieba;
}

/**
 * Splits text into search tokens: CJK runs by jieba in search mode (so "数据平台" yields "数据",
 * "平台" and "数据平台"), Latin and digits as lower-cased words; stopwords dropped. The same function
 * segments documents at index time and queries at search time.
 *
 * @example segment('项目的核心目标 Data Platform') // ['项目', '核心', '目标', 'data', 'platform']
 */
export function segment(text: string): string[] {
  const tokens: string[] = [];
  const normalized = text.normalize('NFKC').toLowerCase();
  for (const match of normalized.matchAll(RUNS)) {
    const [run, cjk] = match;
    if (cjk) {
      for (const token of segmenter().cutForSearch(cjk, true)) pushToken(tokens, token);
    } else {
      pushToken(tokens, run);
    }
  }
  return tokens;
}

function pushToken(tokens: string[], token: string): void {
  const t = token.trim();
  if (!t || t.length > MAX_TOKEN_LENGTH || STOPWORDS.has(t)) return;
  // Single Latin letters ("s" of "it's") carry no meaning; single digits and CJK characters do.
  if (!CJK_RUN.test(t) && (!/[\p{L}\p{N}]/u.test(t) || /^\p{L}$/u.test(t))) return;
  tokens.push(t);
}

/** The CJK runs of a text, NFKC-normalised and lower-cased as `segment` reads them. */
export function cjkRuns(text: string): string[] {
  const runs: string[] = [];
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(RUNS)) if (match[1]) runs.push(match[1]);
  return runs;
}

/** True for the function words `segment` drops ("the", "of", "的", "了"). */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

/** True when the text contains CJK characters. */
export function hasCjk(text: string): boolean {
  return CJK_RUN.test(text);
}

/**
 * Splits a CJK run into words for display (jieba's precise mode, HMM on): unlike `segment`, the
 * words concatenate back to the input, so a word-level diff can show them in place.
 *
 * @example cutWords('退款期限为七天') // ['退款', '期限', '为', '七天']
 */
export function cutWords(cjk: string): string[] {
  return segmenter().cut(cjk, true);
}

/**
 * Words of CJK text with their jieba part-of-speech tags (`nr` person, `ns` place, `nt`
 * organisation, `nz` other proper noun, `x` a word jieba's HMM found outside its dictionary,
 * usually a name), in reading order.
 *
 * @example tagWords('负责人是李明') // [{ word: '负责人', tag: 'n' }, { word: '是', tag: 'v' }, { word: '李明', tag: 'x' }]
 */
export function tagWords(text: string): { word: string; tag: string }[] {
  return segmenter().tag(text.normalize('NFKC'), true);
}
