import { hasCjk, segment, tagWords } from './segment.ts';

/**
 * What a factoid question asks for: a `date` (when, 什么时候), a `place` (where, 哪里), a `number`
 * (how many, 多少) or a `name` (who, which team, 谁, 冠军): the kind of span that a sentence must
 * hold to answer it.
 */
export type AnswerType = 'date' | 'place' | 'number' | 'name';

/** A span of a sentence (offsets into the NFKC form of the text, as `typedSpans` reads it). */
export interface Span {
  start: number;
  end: number;
  text: string;
}

const EN_DATE =
  /\bwhen\b|\b(?:what|which)\s+(?:year|date|day|month|time)\b|\b(?:release|premiere|launch|opening|air)\s+date\b|\bdate\s+of\b|\bwhat\s+time\b/i;
const EN_PLACE =
  /\bwhere\b|\b(?:which|what)\s+(?:city|country|state|province|place|venue|stadium|town|county|region|location|continent)\b|\blocation\b/i;
/** Nouns naming an amount: a question about one asks for a number ("And its budget?"). */
const EN_AMOUNT_NOUNS = 'budget|revenue|sales|profit|price|cost|salary|population|turnover';
const EN_NUMBER = new RegExp(
  `\\bhow\\s+(?:many|much|long|old|far|big|tall|large|high)\\b|\\b(?:number|amount|quantity|count|total|percentage|share|rate|${EN_AMOUNT_NOUNS})\\s+(?:of|in|for|was|is)\\b|\\bwhat\\s+(?:was|is|were|are)\\s+\\S+(?:'s)?\\s+(?:${EN_AMOUNT_NOUNS})\\b|\\b(?:${EN_AMOUNT_NOUNS})s?\\s*[?.]?\\s*$`,
  'i',
);
const EN_NAME =
  /\bwho(?:m|se)?\b|\b(?:which|what)\s+(?!(?:is|was|are|were|does|did|do|has|have|had|can|will|would|should|kind|type|sort)\b)[a-z]+\b|\bname\s+of\b/i;

// A question may end on its question mark (NFKC makes the full-width ？ a plain ?): "…的开始时间？".
const ZH_DATE =
  /什么时候|何时|哪一?年|哪一?天|哪个月|几月|几号|日期|时间\s*\??\s*$|时间是|时间为|的时间|开始于|哪日/u;
const ZH_PLACE = /哪里|哪儿|在哪|何地|何处|地点|地方在|哪个(?:城市|国家|省|地区|地方)|举办地|举行地/u;
const ZH_NUMBER =
  /多少|几[个名位次件台辆人家岁年天种项座条]|数量|人数|总数|[数量率额]\s*[？?]?\s*$|[数量率额](?:是|为|有)|票房|营收|收入|销量|产量|增长|增速|规模|比例|震级|金额|吞吐量|交付量/u;
const ZH_NAME =
  /谁|哪位|哪个|哪家|哪支|哪队|哪些|冠军|导演|主演|得主|总统|总理|主席|首相|作者|演员|火炬手|名称|全称|叫什么/u;

/**
 * The kind of answer a question expects, from its question words (who / when / where / how many,
 * 谁 / 什么时候 / 哪里 / 多少) or, for a Chinese question without one, from the noun it ends on
 * (死亡人数, 开始时间, 冠军); undefined when it asks for something else (what, why, how).
 *
 * @example expectedAnswerType('When was OpenAI founded?') // 'date'
 * @example expectedAnswerType('2021年中国电影市场总票房是多少？') // 'number'
 */
export function expectedAnswerType(question: string): AnswerType | undefined {
  const q = question.normalize('NFKC').trim();
  if (hasCjk(q)) {
    if (ZH_DATE.test(q)) return 'date';
    if (ZH_PLACE.test(q)) return 'place';
    if (ZH_NUMBER.test(q)) return 'number';
    if (ZH_NAME.test(q)) return 'name';
    return undefined;
  }
  if (EN_DATE.test(q)) return 'date';
  if (EN_PLACE.test(q)) return 'place';
  if (EN_NUMBER.test(q)) return 'number';
  if (EN_NAME.test(q)) return 'name';
  return undefined;
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE_PATTERNS = [
  new RegExp(`\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b`, 'giu'),
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}(?:,?\\s+\\d{4})?\\b`, 'giu'),
  new RegExp(`\\b${MONTH}\\s+\\d{4}\\b`, 'giu'),
  /\b\d{4}-\d{2}-\d{2}\b/gu,
  /\b(?:1[5-9]|20)\d{2}\b/gu,
  /(?:\d{2,4}|[一二三四五六七八九〇零]{2,4})年(?:\d{1,2}月(?:\d{1,2}[日号])?)?|\d{1,2}月(?:\d{1,2}[日号]|[上中下]旬|初|底)?|\d{1,2}[日号]/gu,
];
/**
 * A number with its unit: 12人, 472.58亿元, $10.4 billion, 64.72%, 1,269 people. Digits inside a
 * Latin word name a thing, not an amount: Q3, MP3, A320.
 */
const NUMBER_PATTERN =
  /(?<![\p{Script=Latin}\d])[$€£¥]?\d+(?:[,，]\d{3})*(?:\.\d+)?\s*(?:%|‰|％|[万亿千百]+)?(?:\s*(?:billion|million|thousand|percent|per\s*cent)\b)?|[一二两三四五六七八九十百千万亿]+(?=[个名位人次件台辆家岁种项座条元])/gu;
/** What follows the number of a clock time: 19时51分, 8:00. */
const CLOCK_UNIT = /^\s*(?:[时点分秒]|:\d)/u;
/** A bare four-digit year is a date, not an amount (unless a unit follows it). */
const BARE_YEAR = /^(?:1[5-9]|20)\d{2}$/u;
/** Capitalised word runs: "Simona Halep", "Tampa, Florida" is two; "U.S. Open". */
const CAPITALISED =
  /\b[A-Z][\p{L}\p{N}'’.-]*(?:\s+(?:(?:of|the|de|da|van|von|del|la|le|and|&)\s+)*[A-Z][\p{L}\p{N}'’.-]*)*/gu;
/** Capitalised words that are not names: openers, question and function words, months and days. */
const NOT_NAME = new RegExp(
  `^(?:${MONTH}|mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|a|an|and|as|at|but|by|for|from|he|her|his|how|i|if|in|is|it|its|of|on|or|our|she|so|that|the|their|then|there|these|they|this|those|to|was|we|what|when|where|which|who|why|will|with|you|after|before|also)$`,
  'iu',
);
/** jieba's tags of names: person, place, organisation, other proper noun. */
const ZH_NAME_TAGS = new Set(['nr', 'nrt', 'ns', 'nt', 'nz']);
const ZH_PLACE_TAGS = new Set(['ns']);
/** Place words by their suffix: 梧州市, 藤县, 成都 (tagged ns). */
const ZH_PLACE_SUFFIX = /^\p{Script=Han}{1,6}(?:市|省|县|区|州|镇|村|国|岛|湾|港)$/u;
/** Text in title marks or quotes names a work or a thing: 《长津湖》, “歼敌者”. */
const ZH_QUOTED = /《[^》]{1,30}》|“[^”]{1,30}”|「[^」]{1,30}」/gu;

/**
 * The spans of a sentence that are of the given answer type: dates (July 13, 2019; 2021年11月23日;
 * 1月3日), numbers with their units (12人, $6.3 billion, 64.72%; a bare year is a date), and names
 * or places (capitalised word runs in Latin text; in Chinese the words jieba tags as names or
 * places, place-suffixed words, titles in 《》). Offsets into `text.normalize('NFKC')`.
 *
 * @example typedSpans('Halep won on July 13, 2019.', 'date').map((s) => s.text) // ['July 13, 2019']
 */
export function typedSpans(text: string, type: AnswerType): Span[] {
  const t = text.normalize('NFKC');
  const spans: Span[] = [];
  const push = (start: number, value: string) => {
    const end = start + value.length;
    if (value.trim() && !spans.some((s) => s.start <= start && s.end >= end))
      spans.push({ start, end, text: value });
  };
  const matchAll = (pattern: RegExp, accept: (value: string) => boolean = () => true) => {
    for (const m of t.matchAll(pattern)) if (accept(m[0].trim())) push(m.index ?? 0, m[0].trim());
  };
  switch (type) {
    case 'date':
      for (const pattern of DATE_PATTERNS) matchAll(pattern);
      break;
    case 'number': {
      // The parts of a date or a clock time (12月20日, 19时51分, July 13) are not amounts.
      const dates = typedSpans(t, 'date');
      for (const m of t.matchAll(NUMBER_PATTERN)) {
        const value = m[0].trim();
        const start = m.index ?? 0;
        const end = start + m[0].length;
        if (!/[\d一二两三四五六七八九十百千万亿]/u.test(value) || BARE_YEAR.test(value)) continue;
        if (dates.some((d) => d.start < end && start < d.end) || CLOCK_UNIT.test(t.slice(end))) continue;
        push(start, value);
      }
      break;
    }
    case 'name':
    case 'place': {
      matchAll(CAPITALISED, (value) =>
        value.split(/\s+/).some((w) => !NOT_NAME.test(w.replace(/[.,]$/, ''))),
      );
      if (hasCjk(t)) {
        if (type === 'name') matchAll(ZH_QUOTED);
        let at = 0;
        for (const { word, tag } of tagWords(t)) {
          const start = t.indexOf(word, at);
          if (start < 0) continue;
          at = start + word.length;
          const isName =
            type === 'name' ? ZH_NAME_TAGS.has(tag) : ZH_PLACE_TAGS.has(tag) || ZH_PLACE_SUFFIX.test(word);
          if (isName && [...word].length >= 2) push(start, word);
        }
      }
      break;
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * The typed spans of a sentence that tell something the question does not: a span whose search
 * tokens all occur in the question (the year it asks about, the name it gives) is left out.
 */
export function newTypedSpans(text: string, type: AnswerType, question: string): Span[] {
  const asked = new Set(segment(question));
  return typedSpans(text, type).filter((span) => {
    const tokens = segment(span.text);
    return tokens.length > 0 && !tokens.every((token) => asked.has(token));
  });
}

/** What sets a dateline off from the text after it: "Sep 13, 2022 ... The game ...", "May 2, 2023 — ". */
const DATELINE_END = /^\s*(?:\.{2,}|…+|—|–|-|\|)\s*/u;

/**
 * The sentence without its dateline: a date opening it and set off by an ellipsis or a dash
 * ("Sep 13, 2022 ... The game was ...") says when the text was published, not what it is about.
 * The rest is still verbatim text of the source.
 *
 * @example withoutDateline('Jul 13, 2019 ... Halep beats Williams.') // 'Halep beats Williams.'
 */
export function withoutDateline(text: string): string {
  const t = text.normalize('NFKC');
  // Offsets are into the NFKC form: cut only where it is the text itself.
  if (t.length !== text.length) return text;
  const first = typedSpans(t, 'date')[0];
  if (first?.start !== 0) return text;
  const end = DATELINE_END.exec(t.slice(first.end));
  if (!end) return text;
  const rest = text.slice(first.end + end[0].length).trim();
  return rest.length > 0 ? rest : text;
}
