import { hasCjk, segment } from '#shared/text/segment.ts';
import { type KeyPhrase, keyPhrases, topicKey, type WeightedText } from './key-phrases.ts';
import { splitSentences } from './sentences.ts';

export type { WeightedText } from './key-phrases.ts';

export interface KeywordTopic {
  /** The phrase as shown ("Project Borealis", "数据平台"). */
  name: string;
  /** The normalised phrase (lower case, singular): equal keys are one topic. */
  key: string;
  /** A sentence of the document that uses the phrase, quoted. */
  description: string;
  /** The phrase's score relative to the best one, in (0, 1]. */
  confidence: number;
}

export interface KeywordTopicOptions {
  max: number;
  /** Documents in the corpus, this one included. */
  corpusSize: number;
  /** Documents other than this one that contain every one of the tokens. */
  documentFrequency: (tokens: string[]) => number;
}

/** From this many documents on, words in at least `COMMON_SHARE` of the others are the corpus's common words. */
const COMMON_CORPUS = 6;
const COMMON_SHARE = 0.5;
/** A phrase other documents also use (and not a common word) links them: it counts this much more. */
const SHARED_BOOST = 1.5;
/** Each word past the first adds this much: "refund policy" says more than "policy". */
const WORD_BOOST = 0.15;
/** A phrase of several words written once (a title's wording, "Project Borealis charter") counts this much. */
const ONCE = 0.6;
/** Phrases scored for one document, the most frequent first (a long document has thousands). */
const MAX_CANDIDATES = 150;

/** A key phrase with its score against the corpus and its document frequency there. */
export interface ScoredPhrase {
  phrase: KeyPhrase;
  score: number;
  /** Other documents of the corpus that use it. */
  documents: number;
}

/**
 * A document's key phrases (`keyPhrases`: noun phrases, Chinese noun compounds) scored against the
 * corpus, best first: sublinear weighted frequency (titles and headings count more) x inverse
 * document frequency, x `SHARED_BOOST` when other documents use the phrase too (a topic links
 * documents), a little more per word. The corpus's common words (in half of its documents, once it
 * has `COMMON_CORPUS`) are left out. Deterministic: ties go to the longer, then the alphabetically
 * first phrase.
 */
export function rankKeyPhrases(
  texts: WeightedText[],
  corpus: Omit<KeywordTopicOptions, 'max'>,
): ScoredPhrase[] {
  const { corpusSize } = corpus;
  const others = corpusSize - 1;
  const common = (token: string) =>
    corpusSize >= COMMON_CORPUS && corpus.documentFrequency([token]) >= others * COMMON_SHARE;
  const phrases = standalone(
    keyPhrases(texts)
      .sort((a, b) => b.frequency - a.frequency || (a.key < b.key ? -1 : 1))
      .slice(0, MAX_CANDIDATES),
  )
    .map((phrase) => ({ phrase, tokens: [...new Set(segment(phrase.written))] }))
    .filter(({ tokens }) => tokens.length > 0 && !tokens.every(common));
  const scored = phrases.map(({ phrase, tokens }) => {
    const documents = corpus.documentFrequency(tokens);
    const idf = Math.log((corpusSize + 1) / (documents + 1)) + 1;
    const shared = documents > 0 ? SHARED_BOOST : 1;
    const length =
      phrase.words > 1 && phrase.count < 2 ? ONCE : 1 + WORD_BOOST * (Math.min(phrase.words, 3) - 1);
    return { phrase, documents, score: (1 + Math.log(phrase.frequency)) * idf * shared * length };
  });
  return scored.sort(
    (a, b) =>
      b.score - a.score ||
      b.phrase.key.length - a.phrase.key.length ||
      (a.phrase.key < b.phrase.key ? -1 : 1),
  );
}

/**
 * Offline topics (docs/spec.md#topics, without a model): the best of `rankKeyPhrases`, none
 * containing or contained in another ("platform" and "data platform"). Of two such, the longer is
 * kept when it is at least half as frequent in the document and in the corpus as the shorter one
 * ("refund policy" over "refund"), else the better scored.
 *
 * @example keywordTopics(texts, { max: 5, corpusSize: 10, documentFrequency: (tokens) => 0 })
 */
export function keywordTopics(texts: WeightedText[], options: KeywordTopicOptions): KeywordTopic[] {
  return pickTopics(rankKeyPhrases(texts, options), options.max, texts);
}

/** `keywordTopics` over phrases already ranked. */
export function pickTopics(ranked: ScoredPhrase[], max: number, texts: WeightedText[]): KeywordTopic[] {
  const chosen: ScoredPhrase[] = [];
  for (const candidate of ranked) {
    if (chosen.length >= max) break;
    const clash = chosen.findIndex((c) => overlaps(c.phrase.key, candidate.phrase.key));
    if (clash < 0) {
      chosen.push(candidate);
      continue;
    }
    const held = chosen[clash] as ScoredPhrase;
    const longer =
      candidate.phrase.words > held.phrase.words &&
      candidate.phrase.count >= 2 &&
      candidate.phrase.frequency >= held.phrase.frequency / 2 &&
      candidate.documents >= held.documents / 2;
    const clashesElsewhere = chosen.some(
      (c, i) => i !== clash && overlaps(c.phrase.key, candidate.phrase.key),
    );
    if (longer && !clashesElsewhere) chosen[clash] = { ...candidate, score: held.score };
  }
  const best = Math.max(...chosen.map((c) => c.score), Number.MIN_VALUE);
  const sentences = texts.flatMap((t) => splitSentences(t.text.normalize('NFKC')));
  return chosen.map(({ phrase, score }) => ({
    name: phrase.name,
    key: phrase.key,
    description: describe(phrase, sentences),
    confidence: Math.round((score / best) * 1000) / 1000,
  }));
}

/**
 * The phrases used on their own: a phrase whose every occurrence is inside one longer phrase
 * ("project" in "project borealis") is left out (its frequency less that of the longest phrase
 * containing it, as C-value counts nested terms). Each phrase's inner phrases are looked up by key
 * (`innerKeys`), not compared with every other phrase.
 */
function standalone(phrases: KeyPhrase[]): KeyPhrase[] {
  const byKey = new Map(phrases.map((p) => [p.key, p]));
  const nested = new Map<string, number>();
  for (const q of phrases) {
    if (q.words < 2) continue;
    for (const key of innerKeys(q.key)) {
      const p = byKey.get(key);
      if (p && p.words < q.words && q.frequency > (nested.get(key) ?? 0)) nested.set(key, q.frequency);
    }
  }
  return phrases.filter((p) => p.frequency - (nested.get(p.key) ?? 0) > 0);
}

/**
 * The keys a key contains, as `overlaps` finds them: runs of its whole words in English, runs of
 * its characters in Chinese.
 */
function innerKeys(key: string): string[] {
  const [parts, joiner] = hasCjk(key) ? [[...key], ''] : [key.split(' '), ' '];
  const inner: string[] = [];
  for (let start = 0; start < parts.length; start++)
    for (let end = start + 1; end <= parts.length; end++)
      if (end - start < parts.length) inner.push(parts.slice(start, end).join(joiner));
  return inner;
}

/**
 * Whether one phrase contains the other: whole words in English ("data platform" and "platform",
 * not "form"), characters in Chinese ("数据平台" and "平台").
 *
 * @example overlaps('data platform', 'platform') // true
 */
export function overlaps(a: string, b: string): boolean {
  if (hasCjk(a) || hasCjk(b)) return a.includes(b) || b.includes(a);
  return ` ${a} `.includes(` ${b} `) || ` ${b} `.includes(` ${a} `);
}

/** A topic name's normalised key and search tokens, as `termOverlap` compares them (`topicTerms`). */
export interface TopicTerms {
  name: string;
  key: string;
  tokens: Set<string>;
  /** The key after a space: a name ending another's ends its `spaced` key. */
  spaced: string;
  /** Written with a capital and not Chinese: a name that may end another ("Borealis"). */
  named: boolean;
}

/**
 * Terms of the names compared lately. The topic mirror keeps its topics' terms itself (it compares
 * every new document's names with thousands of them); this serves the other callers.
 */
const termsCache = new Map<string, TopicTerms>();
const TERMS_CACHE_SIZE = 20_000;

/** A topic name's normalised key and search tokens (segmenting and singularising it: cache the result). */
export function topicTerms(name: string): TopicTerms {
  let terms = termsCache.get(name);
  if (!terms) {
    if (termsCache.size >= TERMS_CACHE_SIZE) termsCache.clear();
    const key = topicKey(name);
    const named = /\p{Lu}/u.test(name) && !hasCjk(name);
    terms = { name, key, tokens: new Set(segment(key)), spaced: ` ${key}`, named };
    termsCache.set(name, terms);
  }
  return terms;
}

/**
 * How much two topic names are one subject by their terms, in [0, 1]: 1 for the same normalised
 * name or when one is a name ending the other ("Borealis" and "Project Borealis"); otherwise the
 * share of their search tokens they have in common (Jaccard).
 *
 * @example termOverlap('Project Borealis', 'borealis') // 1; termOverlap('data platform', 'data team') // 0.33
 */
export function termOverlap(a: string, b: string): number {
  return termsOverlap(topicTerms(a), topicTerms(b));
}

/** `termOverlap` of two names' terms. */
export function termsOverlap(ta: TopicTerms, tb: TopicTerms): number {
  if (ta.key === tb.key) return 1;
  const [short, long] = ta.key.length <= tb.key.length ? [ta, tb] : [tb, ta];
  if (short.named && long.spaced.endsWith(short.spaced)) return 1;
  const [fewer, more] = ta.tokens.size <= tb.tokens.size ? [ta.tokens, tb.tokens] : [tb.tokens, ta.tokens];
  let shared = 0;
  for (const t of fewer) if (more.has(t)) shared += 1;
  const union = ta.tokens.size + tb.tokens.size - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * The `overlapKeys` keys to look up for the names whose `termOverlap` with `terms` can reach
 * `threshold` (> 0): its own key (the same name), the keys of its endings after a space (a name it
 * ends), its last word when it may end another (`named`), and of its tokens only the rarest that
 * such a name must share. A share of tokens (Jaccard) of `threshold` or more needs at least
 * `ceil(threshold * n)` of its `n` tokens, so a name holding none of any `n - ceil(threshold * n) + 1`
 * of them cannot reach it ("prefix filtering"); taking the rarest (`sizeOf`, the names under a key)
 * leaves the fewest candidates, where every token's names grew with the topics (a word as common as
 * 系统 is in thousands of topic names).
 *
 * @example mergeKeys(topicTerms('Project Borealis'), 0.85, sizeOf) // ['k:project borealis', 'k:borealis', 'w:borealis', 't:borealis']
 */
export function mergeKeys(terms: TopicTerms, threshold: number, sizeOf: (key: string) => number): string[] {
  const { key } = terms;
  const keys = [`k:${key}`];
  for (let at = key.indexOf(' '); at >= 0; at = key.indexOf(' ', at + 1)) keys.push(`k:${key.slice(at + 1)}`);
  if (terms.named) keys.push(`w:${key.slice(key.lastIndexOf(' ') + 1)}`);
  const tokens = [...terms.tokens].map((t) => `t:${t}`).sort((a, b) => sizeOf(a) - sizeOf(b));
  // The epsilon keeps 0.85 x 20 = 17.000000000000004 from needing 18 tokens.
  const needed = Math.max(1, Math.ceil(threshold * tokens.length - 1e-9));
  keys.push(...tokens.slice(0, tokens.length - needed + 1));
  return keys;
}

/**
 * Keys under which to index a topic name so that every name with a `termOverlap` above 0 against it
 * shares one of them: its normalised key (same name), its key's last word (a name ending the
 * other's ends on the same word) and its search tokens (shared words).
 *
 * @example overlapKeys('Project Borealis') // ['k:project borealis', 'w:borealis', 't:project', 't:borealis']
 */
export function overlapKeys(name: string | TopicTerms): string[] {
  const { key, tokens } = typeof name === 'string' ? topicTerms(name) : name;
  return [`k:${key}`, `w:${key.slice(key.lastIndexOf(' ') + 1)}`, ...[...tokens].map((t) => `t:${t}`)];
}

/** The first sentence that uses the phrase (or, written in another form, its last word). */
function describe(phrase: KeyPhrase, sentences: string[]): string {
  const lower = sentences.map((s) => s.toLowerCase());
  const head = phrase.key.split(' ').at(-1) ?? phrase.key;
  const i = lower.findIndex((s) => s.includes(phrase.key));
  const j = i >= 0 ? i : lower.findIndex((s) => s.includes(head));
  return (j >= 0 ? sentences[j] : undefined) ?? phrase.name;
}
