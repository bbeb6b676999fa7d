import pluralize from 'pluralize';
import { Tagger } from 'pos';
import { hasCjk, tagWords } from '#shared/text/segment.ts';
import { isMeasureWord } from './measure-words.ts';
import { isStopWord } from './stop-words.ts';

/** A text of the document and how much its words count (titles say more about the topic). */
export interface WeightedText {
  text: string;
  weight: number;
  /**
   * Words that name the document without being written in it (a file name standing in as its
   * title): they add their weight to the phrases the other texts use, never make a phrase.
   */
  hint?: boolean;
}

/** A candidate topic of one document: a noun phrase (English) or a noun or noun compound (Chinese). */
export interface KeyPhrase {
  /** The normalised phrase: NFKC (full width to half), lower case, English nouns singular. */
  key: string;
  /** How it is shown: the key, with the capitals of a name as the document writes it ("Project Borealis"). */
  name: string;
  /** Occurrences, each counted with its text's weight. */
  frequency: number;
  /** Occurrences. */
  count: number;
  /** Lower case, as written most often (the search index's form, for corpus document frequencies). */
  written: string;
  /** Words in the phrase. */
  words: number;
}

/** Words read per document (titles and headings first): a long one's subjects show in its headings and first pages. */
const MAX_WORDS = 2_000;
/** Words of a phrase, at most: English words, Chinese (jieba) words. */
const MAX_PHRASE_WORDS = { en: 3, zh: 2 };
/** English tags that may be part of a noun phrase: adjectives and nouns; the last word is a noun. */
const NOUN = /^NNP?S?$/;
const MODIFIER = /^(?:JJ|NNP?S?)$/;
/** jieba tags of nouns (n, nr person, ns place, nt organisation, nz other proper, nw new word, vn verbal noun, an adjectival noun). */
const ZH_NOUN = /^(?:n|nr|nrt|ns|nt|nz|nw|vn|an)$/;
const LATIN_WORD = /^\p{L}[\p{L}'’-]*$/u;
/**
 * Date words and the amount words ICU has no unit for: parts of amounts and dates, never topics
 * (currencies and units of measure: `isMeasureWord`).
 */
const DATE_WORDS = new Set(
  `percentage per cent times january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday quarter`.split(
    /\s+/,
  ),
);
/** A date word or the name of a currency or unit of measure ("euros", "hours"): never part of a topic. */
const isAmountWord = (word: string) => DATE_WORDS.has(word) || isMeasureWord(word);
const TIME_WORD =
  /^(?:星期|周[一二三四五六日天]|[上下本今明去前]?[年月日周天]|季度|上午|下午|今天|明天|昨天)/;

/** Words (with inner apostrophes, dots and hyphens) and single punctuation marks, as the tagger reads them. */
const LEX = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;

let tagger: Tagger | undefined;

/**
 * The key phrases of a document (offline topics, docs/spec.md#topics): English noun phrases of one
 * to three words (adjectives and nouns ending in a noun, by the `pos` part-of-speech tagger),
 * Chinese nouns and noun compounds (jieba's tags, adjacent nouns joined). Never a stop word of the
 * multilingual lists alone, a number, a date word or a fragment (English words of two letters or
 * less unless an acronym, single Chinese characters). Each occurrence counts with its text's weight.
 *
 * @example keyPhrases([{ text: 'Project Borealis cut the data platforms' costs.', weight: 1 }]).map((p) => p.key)
 * // ['project borealis', 'project', 'borealis', 'data platform', …]
 */
export function keyPhrases(texts: WeightedText[]): KeyPhrase[] {
  const found = new Map<
    string,
    {
      frequency: number;
      count: number;
      names: Map<string, number>;
      written: Map<string, number>;
      words: number;
    }
  >();
  const add = (phrase: ChunkPhrase, weight: number, hint: boolean) => {
    if (hint) {
      const known = found.get(phrase.key);
      if (known) known.frequency += weight;
      return;
    }
    const entry = found.get(phrase.key) ?? {
      frequency: 0,
      count: 0,
      names: new Map(),
      written: new Map(),
      words: phrase.words,
    };
    entry.frequency += weight;
    entry.count += 1;
    entry.names.set(phrase.name, (entry.names.get(phrase.name) ?? 0) + weight);
    entry.written.set(phrase.written, (entry.written.get(phrase.written) ?? 0) + weight);
    found.set(phrase.key, entry);
  };
  let budget = MAX_WORDS;
  // Titles and headings first, so a long document's budget never cuts them; hints last, once the
  // phrases they may weigh are known.
  const order = [...texts].sort((a, b) => Number(!!a.hint) - Number(!!b.hint) || b.weight - a.weight);
  for (const { text, weight, hint = false } of order) {
    if (budget <= 0 && !hint) continue;
    const normalized = text.normalize('NFKC');
    for (const run of normalized.split(/([\p{Script=Han}]+)/u)) {
      if (!run.trim()) continue;
      const chunks = hasCjk(run) ? chineseChunks(run) : englishChunks(run);
      for (const chunk of chunks) {
        budget -= chunk.length;
        const zh = hasCjk(run);
        for (const phrase of subPhrases(chunk, zh ? MAX_PHRASE_WORDS.zh : MAX_PHRASE_WORDS.en, zh ? '' : ' '))
          add(phrase, weight, hint);
      }
    }
  }
  return [...found].map(([key, entry]) => ({
    key,
    name: mostFrequent(entry.names) ?? key,
    frequency: entry.frequency,
    count: entry.count,
    written: mostFrequent(entry.written) ?? key,
    words: entry.words,
  }));
}

function mostFrequent(counts: Map<string, number>): string | undefined {
  let best: [string, number] | undefined;
  for (const entry of counts) {
    if (!best || entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0])) best = entry;
  }
  return best?.[0];
}

interface ChunkWord {
  key: string;
  name: string;
  /** Lower case as written (the index's form: "policies"). */
  written: string;
  noun: boolean;
}

/** Runs of adjectives and nouns in English text, cut at every other word and punctuation. */
function englishChunks(text: string): ChunkWord[][] {
  tagger ??= new Tagger();
  return runs(tagger.tag(text.match(LEX) ?? []).map(([word, tag]) => remembered(word, tag, englishWord)));
}

/**
 * Tagged words already normalised (`englishWord`, `chineseWord`): a corpus repeats its words, and
 * each normalisation runs several patterns and the stop-word lists. Emptied when full.
 */
const wordCache = new Map<string, ChunkWord | null>();
const WORD_CACHE_SIZE = 50_000;

function remembered(
  word: string,
  tag: string,
  normalise: (word: string, tag: string) => ChunkWord | undefined,
): ChunkWord | undefined {
  const cacheKey = `${tag} ${word}`;
  let known = wordCache.get(cacheKey);
  if (known === undefined) {
    if (wordCache.size >= WORD_CACHE_SIZE) wordCache.clear();
    known = normalise(word, tag) ?? null;
    wordCache.set(cacheKey, known);
  }
  return known ?? undefined;
}

/**
 * The runs of phrase words between the words that are not (undefined), each ending in a noun
 * (trailing modifiers dropped).
 */
function runs(words: (ChunkWord | undefined)[]): ChunkWord[][] {
  const chunks: ChunkWord[][] = [];
  let current: ChunkWord[] = [];
  for (const word of [...words, undefined]) {
    if (word) {
      current.push(word);
      continue;
    }
    while (current.length > 0 && !current[current.length - 1]?.noun) current.pop();
    if (current.length > 0) chunks.push(current);
    current = [];
  }
  return chunks;
}

/** A word of an English noun phrase, normalised; undefined when it cannot be part of one. */
function englishWord(word: string, tag: string): ChunkWord | undefined {
  if (!MODIFIER.test(tag) || !LATIN_WORD.test(word)) return undefined;
  const lower = word.toLowerCase().replace(/['’]s?$/, '');
  const acronym = /^\p{Lu}{2,5}$/u.test(word);
  if ((lower.length < 3 && !acronym) || isAmountWord(lower)) return undefined;
  const noun = NOUN.test(tag);
  // A capitalised plural is often a name ("Kubernetes", "Borealis"): only lower-case words are made singular.
  const key = noun && /S$/.test(tag) && word === word.toLowerCase() ? singular(lower) : lower;
  if (isStopWord(key) || isStopWord(lower) || isAmountWord(key)) return undefined;
  // Shown as written ("exceljs", not the "excelj" a plural rule would make): a topic name is a word of the documents.
  const name = acronym ? word : /^\p{Lu}/u.test(word) ? capitalised(lower) : lower;
  return { key, name, written: lower, noun };
}

/**
 * The normalised form of a topic name, as key phrases are keyed: NFKC (full width to half), lower
 * case, single spaces, English words singular; equal keys name one topic.
 *
 * @example topicKey('Refund  Policies') // 'refund policy'; topicKey('ＡＩ平台') // 'ai平台'
 */
export function topicKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .trim()
    .split(/\s+/)
    .map((word) => (/^\p{L}{4,}$/u.test(word) && !hasCjk(word) ? singular(word) : word))
    .join(' ');
}

/**
 * The singular of an English plural noun ("policies" -> "policy"), left as written when the
 * library's answer is not the word less a plural ending (it makes "boreali" of "Borealis" and
 * "datum" of "data").
 */
function singular(word: string): string {
  if (/(?:is|us|ss)$/.test(word)) return word;
  const one = pluralize.singular(word);
  const regular =
    word === `${one}s` || word === `${one}es` || (one.endsWith('y') && word === `${one.slice(0, -1)}ies`);
  return regular ? one : word;
}

function capitalised(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}

/** Runs of Chinese nouns, cut at every other word. */
function chineseChunks(text: string): ChunkWord[][] {
  return runs(tagWords(text).map(({ word, tag }) => remembered(word, tag, chineseWord)));
}

/** A Chinese word of a noun compound; undefined when it cannot be part of one. */
function chineseWord(word: string, tag: string): ChunkWord | undefined {
  const usable =
    ZH_NOUN.test(tag) &&
    [...word].length >= 2 &&
    !/\d/.test(word) &&
    !isStopWord(word) &&
    !TIME_WORD.test(word) &&
    !isMeasureWord(word);
  return usable ? { key: word, name: word, written: word, noun: true } : undefined;
}

/** A phrase of a chunk: its words' forms joined. */
interface ChunkPhrase {
  key: string;
  name: string;
  written: string;
  words: number;
}

/**
 * The phrases of a chunk: every run of one to `most` of its words that ends in a noun ("data
 * platform team" gives "data platform team", "data platform", "platform team", "platform", "team",
 * "data"), each built by putting one more word before the shorter one.
 */
function subPhrases(chunk: ChunkWord[], most: number, joiner: string): ChunkPhrase[] {
  const out: ChunkPhrase[] = [];
  for (let end = 0; end < chunk.length; end++) {
    const last = chunk[end] as ChunkWord;
    if (!last.noun) continue;
    let phrase: ChunkPhrase = { key: last.key, name: last.name, written: last.written, words: 1 };
    out.push(phrase);
    for (let start = end - 1; start >= Math.max(0, end - most + 1); start--) {
      const word = chunk[start] as ChunkWord;
      phrase = {
        key: word.key + joiner + phrase.key,
        name: word.name + joiner + phrase.name,
        written: word.written + joiner + phrase.written,
        words: phrase.words + 1,
      };
      out.push(phrase);
    }
  }
  return out;
}
