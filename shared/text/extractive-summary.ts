import { segment } from '#shared/text/segment.ts';
import { splitSentences } from './sentences.ts';

export interface ExtractiveSummaryInput {
  /** Words of the title make a sentence more representative. */
  title?: string;
  texts: string[];
  maxSentences: number;
  maxChars: number;
}

/** Score bonuses, small beside centrality (a cosine in [0, 1]). */
const TITLE_BONUS = 0.15;
const EARLY_BONUS = 0.1;
/** Sentences shorter than this many characters ("Why?", "注：") are rarely a summary on their own. */
const SHORT_SENTENCE = 12;
const ELLIPSIS = '…';

interface Candidate {
  index: number;
  text: string;
  score: number;
}

/**
 * Picks the most central sentences of the texts (cosine between each sentence's terms and the whole
 * input's term distribution, plus small bonuses for title words and early position) and returns them
 * verbatim in their original order. Never invents text: when no whole sentence fits `maxChars`, the
 * best one is cut at `maxChars` and marked with "…". Deterministic; empty string when there is no text.
 *
 * @example
 * extractiveSummary({ title: '预算', texts: ['今年预算为500万。其余用于培训。'], maxSentences: 1, maxChars: 200 })
 * // '今年预算为500万。'
 */
export function extractiveSummary(input: ExtractiveSummaryInput): string {
  const seen = new Set<string>();
  const sentences: { text: string; tokens: string[] }[] = [];
  for (const text of input.texts) {
    for (const sentence of splitSentences(text)) {
      if (seen.has(sentence)) continue;
      seen.add(sentence);
      sentences.push({ text: sentence, tokens: segment(sentence) });
    }
  }
  if (sentences.length === 0 || input.maxSentences < 1 || input.maxChars < 1) return '';

  const totals = new Map<string, number>();
  for (const s of sentences) for (const t of s.tokens) totals.set(t, (totals.get(t) ?? 0) + 1);
  let totalNorm = 0;
  for (const n of totals.values()) totalNorm += n * n;
  totalNorm = Math.sqrt(totalNorm);
  const titleTokens = new Set(input.title ? segment(input.title) : []);

  const candidates: Candidate[] = sentences.map((s, index) => {
    const tf = new Map<string, number>();
    for (const t of s.tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    let dot = 0;
    let norm = 0;
    let titleHits = 0;
    for (const [t, n] of tf) {
      dot += n * (totals.get(t) ?? 0);
      norm += n * n;
      if (titleTokens.has(t)) titleHits += 1;
    }
    const centrality = norm > 0 && totalNorm > 0 ? dot / (Math.sqrt(norm) * totalNorm) : 0;
    const titleScore = titleTokens.size > 0 ? TITLE_BONUS * (titleHits / titleTokens.size) : 0;
    const early = EARLY_BONUS * (1 - index / sentences.length);
    const shortPenalty = Math.min(1, [...s.text].length / SHORT_SENTENCE);
    return { index, text: s.text, score: (centrality + titleScore) * shortPenalty + early };
  });

  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.index - b.index);
  const chosen: Candidate[] = [];
  let length = 0;
  for (const candidate of ranked) {
    if (chosen.length >= input.maxSentences) break;
    const added = [...candidate.text].length + (chosen.length > 0 ? 1 : 0);
    if (length + added > input.maxChars) continue;
    chosen.push(candidate);
    length += added;
  }
  if (chosen.length === 0) return truncate(ranked[0]?.text ?? '', input.maxChars);
  return joinSentences(chosen.sort((a, b) => a.index - b.index).map((c) => c.text));
}

/** Chinese sentences run on without a space; others are separated by one. */
function joinSentences(sentences: string[]): string {
  let out = '';
  for (const s of sentences) {
    if (out && !/[。！？；：]$/u.test(out)) out += ' ';
    out += s;
  }
  return out;
}

/** A prefix of the sentence within `maxChars` (ellipsis included), cut at a space when one is near. */
function truncate(text: string, maxChars: number): string {
  const chars = [...text];
  if (chars.length <= maxChars) return text;
  const room = Math.max(0, maxChars - ELLIPSIS.length);
  let cut = chars.slice(0, room).join('');
  const space = cut.lastIndexOf(' ');
  if (space > room * 0.6) cut = cut.slice(0, space);
  return `${cut.trimEnd()}${ELLIPSIS}`;
}
