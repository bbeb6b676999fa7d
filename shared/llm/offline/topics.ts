import { segment } from '#shared/index/segment.ts';
import { splitSentences } from './sentences.ts';

/** A text of the document and how much its words count (titles say more about the topic). */
export interface WeightedText {
  text: string;
  weight: number;
}

export interface KeywordTopic {
  name: string;
  /** A sentence of the document that uses the keyword, quoted. */
  description: string;
  /** The keyword's TF-IDF score relative to the best one, in (0, 1]. */
  confidence: number;
}

export interface KeywordTopicOptions {
  max: number;
  /** Documents in the corpus, this one included. */
  corpusSize: number;
  /** Documents other than this one that contain each token. */
  documentFrequency: (token: string) => number;
}

const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;

/** Tokens worth being a topic: CJK words of 2+ characters, Latin words of 3+ letters. */
export function isKeywordCandidate(token: string): boolean {
  if (!LETTER.test(token)) return false;
  return HAN.test(token) ? [...token].length >= 2 : token.length >= 3;
}

/**
 * Term frequencies of the keyword candidates of weighted texts (segmented as the search index
 * segments them), for picking the tokens whose corpus frequency is then looked up.
 */
export function keywordFrequencies(texts: WeightedText[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const { text, weight } of texts) {
    for (const token of segment(text)) {
      if (isKeywordCandidate(token)) tf.set(token, (tf.get(token) ?? 0) + weight);
    }
  }
  return tf;
}

/**
 * Offline topics (seed 000 §5.3 without a model): the document's keywords by TF-IDF, sublinear term
 * frequency over the weighted texts times the inverse document frequency in the corpus. A keyword
 * that contains, or is contained in, a better one ("数据" and "数据平台") is skipped, so the topics
 * differ. Deterministic: ties go to the longer, then the alphabetically first keyword.
 *
 * @example keywordTopics(texts, { max: 5, corpusSize: 10, documentFrequency: (t) => df.get(t) ?? 0 })
 */
export function keywordTopics(texts: WeightedText[], options: KeywordTopicOptions): KeywordTopic[] {
  const tf = keywordFrequencies(texts);
  const scored = [...tf].map(([token, freq]) => {
    const idf = Math.log((options.corpusSize + 1) / (options.documentFrequency(token) + 1)) + 1;
    return { token, score: (1 + Math.log(freq)) * idf };
  });
  scored.sort((a, b) => b.score - a.score || b.token.length - a.token.length || (a.token < b.token ? -1 : 1));
  const chosen: { token: string; score: number }[] = [];
  for (const candidate of scored) {
    if (chosen.length >= options.max) break;
    if (chosen.some((c) => c.token.includes(candidate.token) || candidate.token.includes(c.token))) continue;
    chosen.push(candidate);
  }
  const best = chosen[0]?.score ?? 1;
  const sentences = texts.flatMap((t) => splitSentences(t.text));
  return chosen.map(({ token, score }) => ({
    name: token,
    description: sentences.find((s) => s.toLowerCase().includes(token)) ?? token,
    confidence: Math.round((score / best) * 1000) / 1000,
  }));
}
