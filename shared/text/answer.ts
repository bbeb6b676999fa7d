import { neutralizeMarkers } from '#shared/text/citation-markers.ts';
import { hasCjk, segment } from '#shared/text/segment.ts';
import {
  type AnswerType,
  expectedAnswerType,
  newTypedSpans,
  typedSpans,
  withoutDateline,
} from './answer-type.ts';
import { clauseWindow } from './clause-window.ts';
import { offlineAnswerNotice, offlineNoAnswer } from './offline-notice.ts';
import { splitSentences } from './sentences.ts';

export interface AnswerContext {
  content: string;
  /** The marker number the answer cites this context with (`[n]`). */
  citation: number;
  /** The document the context belongs to (its rendered metadata frames its other contexts). */
  document?: string;
  /**
   * Text DropQA rendered from a document's structure rather than its body (an e-mail's From / To /
   * Subject lines): it lends its terms to the document's other sentences and is quoted only when
   * the document offers no other sentence.
   */
  rendered?: boolean;
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
  /**
   * Answer a factoid question (the direct answer's extract): rank by the answer type the question
   * expects, quote a further sentence only when it adds question terms or another value (not the agreed
   * one again), and of a long sentence only the clauses holding the answer and the question's terms
   * (`clauseWindow`); without
   * it (a step's extract: Stage 1, a hop, a judge), sentences are ranked by their question terms and
   * up to `maxSentences` above the relative floor are kept.
   */
  lead?: boolean;
  /**
   * Sentences the answer already quotes (as returned by an earlier pick): never picked again and
   * not counted as covering the question's terms. A hop's extract passes the question's sentences,
   * so the hop leads with a sentence of its own: the one naming the bridge entity elsewhere
   * ("Dana Whitfield also led Borealis"), not the hop-1 sentence that found the name.
   */
  quoted?: ReadonlySet<string>;
}

export interface AnswerSentence {
  /** What is quoted: the sentence, or for a factoid answer (`lead`) its clauses that answer. */
  text: string;
  citation: number;
  /** The whole sentence `text` comes from (what `quoted` compares). */
  sentence: string;
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
/**
 * A sentence without a span of the type the question expects (no date for "when") answers at most
 * half as well as one with it: the question terms say what it is about, the span is the answer.
 */
const TYPE_MISSING = 0.5;
/** A sentence matching only through its document's rendered metadata is ranked below one matching itself. */
const LENT_ONLY = 0.5;
/** How far (in characters) an answer span may sit from the question terms around it: about a clause. */
const NEAR_CHARS = 40;
/**
 * A sentence offering another value for the answer must be about the question: contain at least
 * this share of its terms (a battery "designed by IBM" is no answer to who designed the Kestrel's),
 * and one of the names of the question that the leading sentence holds (the budget of Vega is no
 * other value for the budget of Atlas).
 */
const ALTERNATIVE_COVERAGE = 0.5;
/**
 * Once the value the passages agree on is quoted, another value is quoted only when the passages back
 * it at least this share as much (`weighByAgreement`): a value one stray sentence offers (a remaster's
 * 2022 release beside the game's 2018 one) is no disagreement, only length.
 */
const ALTERNATIVE_SUPPORT = 0.5;
/** A question in a document asks rather than answers: "Who directed Titanic?" in a film quiz. */
const ASKS = /[?？]$/u;
const NOT_AN_ANSWER = 0.5;

/** Questions asking for an amount: "how many", "how much", "number of", 多少, 几个, 数量. */
const QUANTITY_QUESTION =
  /\bhow\s+(?:many|much)\b|\b(?:number|amount|quantity|count|total)\s+of\b|多少|几[个台件人名种次位家条张套箱批]|数量|总数|总额/i;
/** A "column: value" line (spreadsheet rows, key-value lists) whose column names an amount. */
const QUANTITY_FIELD =
  /^[^:：\n]{0,40}(?:quantit|qty|count|number|amount|total|stock|units?\b|pcs|pieces|inventory|on hand|balance|price|cost|budget|数量|库存|总数|个数|件数|台数|人数|金额|总计|合计|余额|价格|费用|预算)[^:：\n]{0,40}[:：]\s*\S/i;
const HAS_NUMBER = /\d/;
const YEAR = /^(?:1[5-9]|20)\d{2}$/u;
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

/** A candidate sentence of the contexts, with what the ranking needs to know about it. */
interface Candidate {
  text: string;
  citation: number;
  block: number;
  order: number;
  tokens: Set<string>;
  document?: string;
  rendered: boolean;
}

/**
 * The sentences of the contexts that best answer the question, best first, verbatim; empty when
 * none shares a term with the question. Deterministic. Sentences are scored by the question terms
 * they contain (weighted by how rare each term is among the candidates; rendered metadata of a
 * document, such as an e-mail's Subject line, lends its terms to that document's other sentences
 * and is quoted only when the document offers nothing else). When the question expects a date,
 * place, number or name (`expectedAnswerType`), a sentence holding no such span near its question
 * terms, beyond what the question already says, counts for half. The best sentence leads; a further
 * sentence is quoted only when it adds question terms the ones before it lack (never padding), and
 * for a factoid answer (`lead`) once the value the passages agree on is quoted, only when it offers
 * another value.
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
  const sentences: Candidate[] = [];
  let block = 0;
  for (const context of contexts) {
    // Blank lines part a passage's blocks: the rows of a sheet, the items of a list.
    for (const part of context.content.split(BLOCK_BREAK)) {
      block += 1;
      for (const sentence of splitSentences(part)) {
        const text = withoutDateline(sentence);
        if (seen.has(text)) continue;
        seen.add(text);
        sentences.push({
          text,
          citation: context.citation,
          block,
          order: sentences.length,
          // A dateline is not quoted and offers no answer, but says when the text was written: its
          // year still matches the question's ("Who is the CEO of Lego in 2021?").
          tokens: new Set([...segment(text), ...datelineYears(sentence, text)]),
          document: context.document,
          rendered: context.rendered === true,
        });
      }
    }
  }
  const frequency = new Map<string, number>();
  for (const s of sentences)
    for (const t of s.tokens) if (terms.has(t)) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  const weight = (t: string) => {
    const f = frequency.get(t);
    return f ? Math.log(1 + sentences.length / f) : 0;
  };
  const framing = renderedFraming(sentences, terms);
  const lead = options.lead === true;
  const type = lead ? expectedAnswerType(question) : undefined;
  const matched = sentences
    .filter((s) => !(s.rendered && s.document !== undefined && framing.bodies.has(s.document)))
    .map((s) => {
      const own = [...s.tokens].filter((t) => terms.has(t));
      const lent = s.rendered || s.document === undefined ? [] : (framing.terms.get(s.document) ?? []);
      const covered = new Set([...own, ...lent]);
      let score = 0;
      for (const t of covered) score += weight(t);
      if (own.length === 0 && lent.length > 0) score *= LENT_ONLY;
      if (lead && ASKS.test(s.text.trim())) score *= NOT_AN_ANSWER;
      const answers = type && score > 0 ? answerSpans(s.text, type, question, own) : [];
      return { ...s, covered, score, answers, agreed: false, amount: false };
    });
  const support = type ? weighByAgreement(matched) : new Map<string, number>();
  const scored = ((options.quantity ?? asksForQuantity(question)) ? favourQuantities(matched) : matched)
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const best = scored[0]?.score ?? 0;
  const picked: AnswerSentence[] = [];
  const covered = new Set<string>();
  // A question expecting a date, place, number or name asks for a value: a further sentence adds to
  // the answer when it states a value not quoted yet (the passages may disagree, or the best
  // sentence name another thing), and the value the passages agree on most is always quoted.
  let slotFilled = !type || !scored.some((s) => s.agreed);
  let agreedQuoted = false;
  let chars = 0;
  const offered = new Set<string>();
  // A quantity question's amount line ("Quantity: 1450") holds no question term of its own: it
  // answers through its block, so the first one quoted is the answer, never padding.
  let amountQuoted = false;
  // The names the question gives (Atlas, 北斗): another value must be about those the leading
  // sentence holds, not about another project with a budget too.
  const named = new Set(
    typedSpans(question, 'name')
      // A capitalised run reads on into Chinese text after it ("C919商业首飞时间"): its Latin part names.
      .flatMap((span) => segment(span.text.replace(/(?<=[\p{Script=Latin}\p{N}])\p{Script=Han}.*$/u, '')))
      .filter((t) => terms.has(t)),
  );
  // Chinese text has no spaces to end a span ("5奈米" offers "5", "中国" a name), so there the agreed
  // value is too often a fragment to hold back the other values.
  const backedOnly = !hasCjk(question);
  const backed = (answer: string) =>
    !agreedQuoted || !backedOnly || (support.get(answer) ?? 0) >= ALTERNATIVE_SUPPORT;
  let anchors: string[] | undefined;
  // The years the question names ("in 2021"): another value must be of the years the leading sentence
  // holds, not the 2022 figure beside the 2021 one.
  const years = [...terms].filter((t) => YEAR.test(t));
  let yearAnchors: string[] = [];
  // The clauses holding the answers the passages agree on most outweigh the question terms of any other.
  const answerWeight = [...terms].reduce((sum, t) => sum + weight(t), 0);
  const clauseWeight = (clause: string, answers: string[]) => {
    let total = 0;
    for (const t of new Set(segment(clause))) if (terms.has(t)) total += weight(t);
    const lower = clause.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
    const held = answers.filter((a) => lower.includes(a)).map((a) => support.get(a) ?? 0);
    return total + answerWeight * held.reduce((sum, h) => sum + h, 0);
  };
  for (const s of scored) {
    if (picked.length >= maxSentences || s.score < best * RELATIVE_FLOOR) break;
    if (options.quoted?.has(neutralizeMarkers(s.text))) continue;
    const fillsSlot =
      (!slotFilled && s.agreed) ||
      (s.covered.size >= terms.size * ALTERNATIVE_COVERAGE &&
        (!anchors?.length || anchors.some((t) => s.covered.has(t))) &&
        yearAnchors.every((t) => s.covered.has(t)) &&
        s.answers.some((a) => !offered.has(a) && backed(a)) &&
        // Another value, or a fuller one ("December 2015" after "2015"); not the agreed value again
        // beside some other name ("Pogačar (UAE Team Emirates)").
        (!s.answers.some((a) => support.get(a) === 1 && [...offered].some((o) => sameValue(a, o))) ||
          s.answers.some((a) => [...offered].some((o) => refines(a, o))))) ||
      (s.amount && !amountQuoted);
    if (lead && picked.length > 0 && !fillsSlot && [...s.covered].every((t) => covered.has(t))) continue;
    // Once the value the passages agree on is quoted, the question is answered: a further sentence
    // must offer another value (the passages may disagree), not merely more of the question's terms.
    if (lead && agreedQuoted && !fillsSlot) continue;
    // Without an expected answer type nothing says which clause answers: the sentence is quoted whole.
    const shown = type ? clauseWindow(s.text, (clause) => clauseWeight(clause, s.answers)) : s.text;
    const length = [...shown].length;
    if (picked.length > 0 && chars + length > maxChars) continue;
    // Quoted document text keeps no marker of its own: only the `[n]` added here cites.
    picked.push({
      text: neutralizeMarkers(shown),
      citation: s.citation,
      sentence: neutralizeMarkers(s.text),
    });
    for (const t of s.covered) covered.add(t);
    if (!anchors) yearAnchors = years.filter((t) => s.covered.has(t));
    anchors ??= [...named].filter((t) => s.covered.has(t));
    slotFilled ||= s.agreed;
    agreedQuoted ||= type !== undefined && s.agreed;
    amountQuoted ||= s.amount;
    for (const a of s.answers) offered.add(a);
    chars += length;
  }
  return picked;
}

/** The years of the dateline cut from a sentence (`withoutDateline`), as search tokens. */
function datelineYears(sentence: string, text: string): string[] {
  if (text === sentence) return [];
  return segment(sentence.slice(0, Math.max(0, sentence.indexOf(text)))).filter((t) => YEAR.test(t));
}

/**
 * Of rendered metadata (an e-mail's From / To / Subject lines): the question terms it holds per
 * document, and the documents that also have other candidate sentences (their "bodies").
 */
function renderedFraming(
  sentences: Candidate[],
  terms: Set<string>,
): { terms: Map<string, string[]>; bodies: Set<string> } {
  const framed = new Map<string, string[]>();
  const bodies = new Set<string>();
  for (const s of sentences) {
    if (s.document === undefined) continue;
    if (!s.rendered) {
      bodies.add(s.document);
      continue;
    }
    const held = framed.get(s.document) ?? [];
    for (const t of s.tokens) if (terms.has(t) && !held.includes(t)) held.push(t);
    framed.set(s.document, held);
  }
  return { terms: framed, bodies };
}

/**
 * The spans of the expected type a sentence offers as its answer (lower-cased, spaces collapsed):
 * those the question does not already give, within `NEAR_CHARS` of a question term the sentence
 * contains (anywhere, when it matches only through rendered metadata).
 */
function answerSpans(text: string, type: AnswerType, question: string, own: string[]): string[] {
  const lower = text.normalize('NFKC').toLowerCase();
  const positions = own.flatMap((term) => {
    const found: number[] = [];
    for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1)) found.push(at);
    return found;
  });
  return newTypedSpans(text, type, question)
    .filter(
      (span) =>
        positions.length === 0 ||
        positions.some((p) => Math.max(span.start - p, p - span.end, 0) <= NEAR_CHARS),
    )
    .map((span) => span.text.toLowerCase().replace(/\s+/g, ' '));
}

/** The words of an answer span, as `sameValue` compares them. */
const valueWords = (span: string) => span.split(/[\s,，、·・.]+/u).filter(Boolean);

/** Whether answer span `a` says more than `b` of one value: all of `b`'s words and others ("December 2015", "2015"). */
function refines(a: string, b: string): boolean {
  const [x, y] = [valueWords(a), valueWords(b)];
  return x.length > y.length && y.every((w) => x.includes(w));
}

/** Whether two answer spans name one value: one's words are all in the other ("Halep", "Simona Halep"). */
function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [valueWords(a), valueWords(b)];
  return x.every((w) => y.includes(w)) || y.every((w) => x.includes(w));
}

/**
 * Answer redundancy (the answer to a factoid question recurs across the passages that discuss it):
 * each answer span collects the scores of the sentences offering it (or a span inside it or around
 * it, "Halep" and "Simona Halep"), and a sentence's score is scaled between `TYPE_MISSING` (no span
 * of the expected type) and 1 (the span with the most support); the sentences offering that span
 * are marked `agreed`.
 */
function weighByAgreement(
  sentences: { score: number; answers: string[]; agreed?: boolean }[],
): Map<string, number> {
  const votes = new Map<string, number>();
  for (const s of sentences)
    for (const answer of new Set(s.answers)) votes.set(answer, (votes.get(answer) ?? 0) + s.score);
  const support = new Map<string, number>();
  for (const answer of votes.keys()) {
    let total = 0;
    for (const [other, count] of votes) if (sameValue(answer, other)) total += count;
    support.set(answer, total);
  }
  const most = Math.max(0, ...support.values());
  for (const s of sentences) {
    const best = Math.max(0, ...s.answers.map((a) => support.get(a) ?? 0));
    s.score *= most > 0 ? TYPE_MISSING + (1 - TYPE_MISSING) * (best / most) : 1;
    s.agreed = most > 0 && best === most;
  }
  return new Map([...support].map(([answer, total]) => [answer, most > 0 ? total / most : 0]));
}

/**
 * For a question asking how many or how much: the lines of a matching block (a paragraph, or one
 * row of a sheet) that state an amount gain that block's best score (a "Quantity: 1450" field) or
 * half of it (any other number), since the line holding the answer to such a question rarely
 * repeats its terms (a sheet row's Part and Warehouse lines match "titanium bolts in Rotterdam", its
 * Quantity line does not). Numbers in blocks that match nothing gain nothing; the lines gaining are marked `amount`.
 */
function favourQuantities<T extends { text: string; block: number; score: number; amount: boolean }>(
  sentences: T[],
): T[] {
  const best = new Map<number, number>();
  for (const s of sentences) best.set(s.block, Math.max(best.get(s.block) ?? 0, s.score));
  return sentences.map((s) => {
    const passage = best.get(s.block) ?? 0;
    if (passage === 0 || !HAS_NUMBER.test(s.text)) return s;
    const weight = QUANTITY_FIELD.test(s.text) ? 1 : 0.5;
    return { ...s, score: s.score + passage * weight, amount: true };
  });
}

/**
 * The offline answer's text: a label saying it is extractive (in the question's language), then each
 * sentence quoted verbatim with its `[n]` marker; or, with no sentence, that no passage answers.
 */
export function formatExtractiveAnswer(
  question: string,
  sentences: Pick<AnswerSentence, 'text' | 'citation'>[],
): string {
  const zh = hasCjk(question);
  if (sentences.length === 0) return offlineNoAnswer(zh);
  return [offlineAnswerNotice(zh), '', ...sentences.map((s) => `> ${s.text} [${s.citation}]`)].join('\n');
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
