import pluralize from 'pluralize';
import { Tagger } from 'pos';
import { hasCjk, tagWords } from '#shared/index/segment.ts';
import { isStopWord } from './stop-words.ts';

/** A text of the document and how much its words count (titles say more about the topic). */
export interface WeightedText {
  text: string;
  weight: number;
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
/** Date and unit words: parts of amounts and dates, never topics. */
const DATES_AND_UNITS = new Set(
  `percent percentage per cent times day hour minute january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday week month year quarter`.split(
    /\s+/,
  ),
);
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
  const add = (words: ChunkWord[], weight: number, joiner: string) => {
    const key = words.map((w) => w.key).join(joiner);
    const name = words.map((w) => w.name).join(joiner);
    const written = words.map((w) => w.written).join(joiner);
    const entry = found.get(key) ?? {
      frequency: 0,
      count: 0,
      names: new Map(),
      written: new Map(),
      words: words.length,
    };
    entry.frequency += weight;
    entry.count += 1;
    entry.names.set(name, (entry.names.get(name) ?? 0) + weight);
    entry.written.set(written, (entry.written.get(written) ?? 0) + weight);
    found.set(key, entry);
  };
  let budget = MAX_WORDS;
  // Titles and headings first, so a long document's budget never cuts them.
  for (const { text, weight } of [...texts].sort((a, b) => b.weight - a.weight)) {
    if (budget <= 0) break;
    const normalized = text.normalize('NFKC');
    for (const run of normalized.split(/([\p{Script=Han}]+)/u)) {
      if (!run.trim()) continue;
      const chunks = hasCjk(run) ? chineseChunks(run) : englishChunks(run);
      for (const chunk of chunks) {
        budget -= chunk.length;
        const zh = hasCjk(run);
        for (const phrase of subPhrases(chunk, zh ? MAX_PHRASE_WORDS.zh : MAX_PHRASE_WORDS.en))
          add(phrase, weight, zh ? '' : ' ');
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
  return runs(tagger.tag(text.match(LEX) ?? []).map(([word, tag]) => englishWord(word, tag)));
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
  if ((lower.length < 3 && !acronym) || DATES_AND_UNITS.has(lower)) return undefined;
  const noun = NOUN.test(tag);
  // A capitalised plural is often a name ("Kubernetes", "Borealis"): only lower-case words are made singular.
  const key = noun && /S$/.test(tag) && word === word.toLowerCase() ? singular(lower) : lower;
  if (isStopWord(key) || isStopWord(lower) || DATES_AND_UNITS.has(key)) return undefined;
  const name = acronym ? word : /^\p{Lu}/u.test(word) ? capitalised(key) : key;
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
  return runs(
    tagWords(text).map(({ word, tag }) => {
      const usable =
        ZH_NOUN.test(tag) &&
        [...word].length >= 2 &&
        !/\d/.test(word) &&
        !isStopWord(word) &&
        !TIME_WORD.test(word);
      return usable ? { key: word, name: word, written: word, noun: true } : undefined;
    }),
  );
}

/**
 * The phrases of a chunk: every run of one to `most` of its words that ends in a noun ("data
 * platform team" gives "data platform team", "data platform", "platform team", "platform", "team",
 * "data").
 */
function subPhrases(chunk: ChunkWord[], most: number): ChunkWord[][] {
  const out: ChunkWord[][] = [];
  for (let end = 0; end < chunk.length; end++) {
    if (!chunk[end]?.noun) continue;
    for (let start = Math.max(0, end - most + 1); start <= end; start++) {
      out.push(chunk.slice(start, end + 1));
    }
  }
  return out;
}
