import { neutralizeMarkers } from '#shared/text/citation-markers.ts';
import { hasCjk, segment } from '#shared/text/segment.ts';
import { splitSentences } from './sentences.ts';

export interface AnswerContext {
  content: string;
  /** The marker number the answer cites this context with (`[n]`). */
  citation: number;
}

export interface ExtractiveAnswerOptions {
  /** Most sentences quoted (default 3). */
  maxSentences?: number;
  /** Most characters quoted in total (default 700); the best sentence is always kept. */
  maxChars?: number;
  /**
   * Favour the lines that state an amount, as for a question asking how many or how much (default:
   * `asksForQuantity(question)`; a sub-query rewritten from such a question passes the original's).
   */
  quantity?: boolean;
}

export interface AnswerSentence {
  text: string;
  citation: number;
}

export interface ExtractiveAnswer {
  text: string;
  usedCitations: number[];
}

/** Question words carry no content to match ("what", "多少"). */
const QUESTION_WORDS = new Set(
  `what which who whom whose when where why how does do did can could should would shall may might
  please tell me about 什么 哪些 哪个 哪里 如何 怎么 怎样 怎么样 为什么 多少 是否 谁 吗 呢 请问`.split(/\s+/),
);
/** A sentence scoring below this share of the best one adds noise, not an answer. */
const RELATIVE_FLOOR = 0.35;
/** Questions asking for an amount: "how many", "how much", "number of", 多少, 几个, 数量. */
const QUANTITY_QUESTION =
  /\bhow\s+(?:many|much)\b|\b(?:number|amount|quantity|count|total)\s+of\b|多少|几[个台件人名种次位家条张套箱批]|数量|总数|总额/i;
/** A "column: value" line (spreadsheet rows, key-value lists) whose column names an amount. */
const QUANTITY_FIELD =
  /^[^:：\n]{0,40}(?:quantit|qty|count|number|amount|total|stock|units?\b|pcs|pieces|inventory|on hand|balance|price|cost|budget|数量|库存|总数|个数|件数|台数|人数|金额|总计|合计|余额|价格|费用|预算)[^:：\n]{0,40}[:：]\s*\S/i;
const HAS_NUMBER = /\d/;
const BLOCK_BREAK = /\n[ \t]*\n/;

/**
 * Whether a question asks for an amount ("how many", "how much", "number of", 多少, 几个, 数量).
 *
 * @example asksForQuantity('How many bolts are in stock?') // true
 */
export function asksForQuantity(question: string): boolean {
  return QUANTITY_QUESTION.test(question);
}

/**
 * The share (0..1) of the question's content terms that the quoted sentences contain: the offline
 * flow's measure of how fully its extract answers, since hashing-vector cosines are not calibrated
 * against `search.relevanceThreshold`.
 *
 * @example questionCoverage('What is the 2024 budget?', ['The budget for 2024 is 2 million.']) // 1
 */
export function questionCoverage(question: string, sentences: string[]): number {
  const terms = new Set(segment(question).filter((t) => !QUESTION_WORDS.has(t)));
  if (terms.size === 0) return 0;
  const quoted = new Set(sentences.flatMap((text) => segment(text)));
  let found = 0;
  for (const term of terms) if (quoted.has(term)) found += 1;
  return found / terms.size;
}

/**
 * The sentences of the contexts that best match the question's segmented terms (weighted by how
 * rare each term is among the candidate sentences), best first, verbatim; empty when none shares a
 * term with the question. Deterministic.
 */
export function pickAnswerSentences(
  question: string,
  contexts: AnswerContext[],
  options: ExtractiveAnswerOptions = {},
): AnswerSentence[] {
  const maxSentences = options.maxSentences ?? 3;
  const maxChars = options.maxChars ?? 700;
  const terms = new Set(segment(question).filter((t) => !QUESTION_WORDS.has(t)));
  if (terms.size === 0 || maxSentences < 1) return [];

  const seen = new Set<string>();
  const sentences: { text: string; citation: number; block: number; order: number; tokens: Set<string> }[] =
    [];
  let block = 0;
  for (const context of contexts) {
    // Blank lines part a passage's blocks: the rows of a sheet, the items of a list.
    for (const part of context.content.split(BLOCK_BREAK)) {
      block += 1;
      for (const text of splitSentences(part)) {
        if (seen.has(text)) continue;
        seen.add(text);
        sentences.push({
          text,
          citation: context.citation,
          block,
          order: sentences.length,
          tokens: new Set(segment(text)),
        });
      }
    }
  }
  const frequency = new Map<string, number>();
  for (const s of sentences)
    for (const t of s.tokens) if (terms.has(t)) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  const matched = sentences.map((s) => {
    let score = 0;
    for (const t of s.tokens) {
      const f = frequency.get(t);
      if (f) score += Math.log(1 + sentences.length / f);
    }
    return { ...s, score };
  });
  const scored = ((options.quantity ?? asksForQuantity(question)) ? favourQuantities(matched) : matched)
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const best = scored[0]?.score ?? 0;
  const picked: AnswerSentence[] = [];
  let chars = 0;
  for (const s of scored) {
    if (picked.length >= maxSentences || s.score < best * RELATIVE_FLOOR) break;
    const length = [...s.text].length;
    if (picked.length > 0 && chars + length > maxChars) continue;
    // Quoted document text keeps no marker of its own: only the `[n]` added here cites.
    picked.push({ text: neutralizeMarkers(s.text), citation: s.citation });
    chars += length;
  }
  return picked;
}

/**
 * For a question asking how many or how much: the lines of a matching block (a paragraph, or one
 * row of a sheet) that state an amount gain that block's best score (a "Quantity: 1450" field) or
 * half of it (any other number), since the line holding the answer to such a question rarely
 * repeats its terms (a sheet row's Part and Warehouse lines match "titanium bolts in Rotterdam", its
 * Quantity line does not). Numbers in blocks that match nothing gain nothing.
 */
function favourQuantities<T extends { text: string; block: number; score: number }>(sentences: T[]): T[] {
  const best = new Map<number, number>();
  for (const s of sentences) best.set(s.block, Math.max(best.get(s.block) ?? 0, s.score));
  return sentences.map((s) => {
    const passage = best.get(s.block) ?? 0;
    if (passage === 0 || !HAS_NUMBER.test(s.text)) return s;
    const weight = QUANTITY_FIELD.test(s.text) ? 1 : 0.5;
    return { ...s, score: s.score + passage * weight };
  });
}

/**
 * The offline answer's text: a label saying it is extractive (in the question's language), then each
 * sentence quoted verbatim with its `[n]` marker; or, with no sentence, that no passage answers.
 */
export function formatExtractiveAnswer(question: string, sentences: AnswerSentence[]): string {
  const zh = hasCjk(question);
  if (sentences.length === 0) {
    return zh
      ? '离线抽取式回答：文档中没有找到能回答这个问题的段落。'
      : 'Offline extractive answer: no passage in your documents answers this question.';
  }
  const label = zh
    ? '离线抽取式回答（未使用语言模型，以下句子原文摘自您的文档）：'
    : 'Offline extractive answer (no language model was used; the sentences below are quoted verbatim from your documents):';
  return [label, '', ...sentences.map((s) => `> ${s.text} [${s.citation}]`)].join('\n');
}

/**
 * Answers a question without a language model: picks the context sentences that best match the
 * question's terms (Chinese and English) and quotes them verbatim with `[n]` citation markers under a
 * label saying the answer is extractive; says so when nothing matches. Never invents text.
 *
 * @example
 * extractiveAnswer('预算是多少？', [{ content: '今年预算为500万。团队有5人。', citation: 1 }])
 * // { text: '离线抽取式回答（…）：\n\n> 今年预算为500万。 [1]', usedCitations: [1] }
 */
export function extractiveAnswer(
  question: string,
  contexts: AnswerContext[],
  options?: ExtractiveAnswerOptions,
): ExtractiveAnswer {
  const sentences = pickAnswerSentences(question, contexts, options);
  return {
    text: formatExtractiveAnswer(question, sentences),
    usedCitations: [...new Set(sentences.map((s) => s.citation))],
  };
}
