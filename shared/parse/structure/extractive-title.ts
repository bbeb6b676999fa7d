import { extractiveSummary } from '#shared/text/extractive-summary.ts';
import { hasCjk, isStopword } from '#shared/text/segment.ts';
import { splitSentences } from '#shared/text/sentences.ts';

/** Title lengths: about what a person writes as a heading. */
export interface TitleLength {
  maxCjkChars: number;
  maxLatinWords: number;
}

/** A section heading. */
export const SECTION_TITLE: TitleLength = { maxCjkChars: 20, maxLatinWords: 8 };
/** The suffix after an author's numbering ("一、 项目背景"): 5-15 characters (docs/spec.md#title-enrichment). */
export const TITLE_SUFFIX: TitleLength = { maxCjkChars: 15, maxLatinWords: 5 };

/** A clause shorter than this is too little to name a section ("However,"). */
const MIN_CJK_CLAUSE = 4;
const MIN_LATIN_CLAUSE_WORDS = 3;
/** The representative sentence is chosen from this much text: a section's start says what it is about. */
const MAX_INPUT_CHARS = 6_000;

const CLAUSE_MARK = /[，,、：:；;—–]/u;
const TRAILING = /[\s。！？!?；;.,，：:、…—–\-"'“”‘’()（）[\]【】]+$/u;
const LEADING = /^[\s\-*•·>#"'“‘(（[【]+/u;

/**
 * An offline title for a run of text: its most representative sentence (the extractive summary's
 * choice), shortened to a heading: its first clause, at most ~20 characters of Chinese or ~8 words
 * of English (`length`), without trailing punctuation or function words. Deterministic; empty
 * string when the texts hold no sentence.
 *
 * @example extractiveTitle(['Kubernetes runs every service. Costs fell.']) // 'Kubernetes runs every service'
 */
export function extractiveTitle(texts: readonly string[], length: TitleLength = SECTION_TITLE): string {
  const input: string[] = [];
  let total = 0;
  for (const text of texts) {
    if (total >= MAX_INPUT_CHARS) break;
    const piece = text.slice(0, MAX_INPUT_CHARS - total);
    input.push(piece);
    total += piece.length;
  }
  const worthy = input.flatMap(splitSentences).filter(titleWorthy);
  const sentence = extractiveSummary({
    texts: worthy.length > 0 ? worthy : input,
    maxSentences: 1,
    maxChars: 1_000,
  });
  return shortenToTitle(sentence, length);
}

/** Share of a sentence's visible characters that must be letters: not code, a path or a drawing. */
const MIN_LETTER_SHARE = 0.7;
const MIN_TITLE_CHARS = 6;
/** Markup that makes a poor heading: links, inline code, emphasis markers, box drawing. */
const MARKUP = /\]\(|`|\*\*|__|[\u2500-\u257f]|https?:\/\//u;

/** True for a sentence that reads as prose, so a title drawn from it reads as a heading. */
function titleWorthy(sentence: string): boolean {
  const visible = [...sentence.replace(/\s+/g, '')];
  if (visible.length < MIN_TITLE_CHARS || MARKUP.test(sentence)) return false;
  const letters = visible.filter((ch) => /\p{L}/u.test(ch)).length;
  return letters >= visible.length * MIN_LETTER_SHARE;
}

/**
 * A sentence shortened to a heading (see `extractiveTitle`).
 *
 * @example shortenToTitle('本项目旨在建设统一的数据平台，整合各业务系统的数据。') // '本项目旨在建设统一的数据平台'
 */
export function shortenToTitle(sentence: string, length: TitleLength = SECTION_TITLE): string {
  const text = sentence.replace(/\s+/g, ' ').replace(LEADING, '').replace(TRAILING, '');
  return hasCjk(text) ? shortenCjk(text, length.maxCjkChars) : shortenLatin(text, length.maxLatinWords);
}

function shortenCjk(text: string, max: number): string {
  const chars = [...text];
  // The first clause, when it is long enough to say something.
  const clauseEnd = chars.findIndex((ch, i) => i >= MIN_CJK_CLAUSE && CLAUSE_MARK.test(ch));
  const clause = clauseEnd > 0 ? chars.slice(0, clauseEnd).join('') : text;
  return clean(cutAtWord(clause, max));
}

const words = new Intl.Segmenter('zh', { granularity: 'word' });

/** At most `max` characters, ending at a word boundary (ICU's dictionary segmentation) when one is near. */
function cutAtWord(text: string, max: number): string {
  if ([...text].length <= max) return text;
  let out = '';
  for (const { segment } of words.segment(text)) {
    if ([...out].length + [...segment].length > max) break;
    out += segment;
  }
  return [...out].length >= max / 2 ? out : [...text].slice(0, max).join('');
}

function shortenLatin(text: string, max: number): string {
  // The first clause, when it is a reasonable heading on its own.
  const clause = text.split(CLAUSE_MARK)[0]?.trim() ?? '';
  const words = clause.split(' ').length >= MIN_LATIN_CLAUSE_WORDS ? clause.split(' ') : text.split(' ');
  if (words.length <= max) return clean(words.join(' '));
  const kept = words.slice(0, max);
  while (kept.length > 1 && isStopword((kept[kept.length - 1] ?? '').toLowerCase().replace(TRAILING, ''))) {
    kept.pop();
  }
  return clean(kept.join(' '));
}

function clean(text: string): string {
  return closeBrackets(text).replace(TRAILING, '');
}

const OPENERS: Record<string, string> = { '（': '）', '(': ')', '【': '】', '[': ']', '“': '”', '《': '》' };

/** A cut that left a bracket open ("对于纯文本（如长文章") ends before that bracket instead. */
function closeBrackets(text: string): string {
  const open: number[] = [];
  const chars = [...text];
  chars.forEach((ch, i) => {
    if (OPENERS[ch]) open.push(i);
    else if (open.length > 0 && OPENERS[chars[open[open.length - 1] ?? 0] ?? ''] === ch) open.pop();
  });
  const first = open[0];
  return first === undefined ? text : chars.slice(0, first).join('').trimEnd();
}
