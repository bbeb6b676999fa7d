import { hasCjk } from '#shared/text/segment.ts';
import { splitSentences } from '#shared/text/sentences.ts';
import { contentTerms } from '../agent/evaluate.ts';
import { entityKind, namedEntities, nounPhrase, subjectPhrase } from './entities.ts';
import type { Rewrite, Turn } from './turns.ts';

/** Pronouns and demonstratives that point back at something named earlier. */
const ZH_ANAPHORA =
  /它们|他们|她们|[它他她其该此]|这个|那个|这些|那些|这项|那项|这位|那位|上述|前者|后者|之前提到|刚才/u;
const EN_ANAPHORA =
  /\b(?:it|its|they|them|their|theirs|this|that|these|those|he|him|his|she|her|hers|former|latter|same|ones?)\b/i;
/** Pronouns that point at a person, and those that point at a thing. */
const PERSON_PRONOUN = /[他她]|\b(?:he|she|him|his|her|hers)\b/i;
const THING_PRONOUN = /它|\b(?:it|its)\b/i;
/** Ellipsis: "and the budget?", "what about 2023?", "那预算呢？", "还有风险吗". */
const EN_ELLIPSIS = /^\s*(?:and|or|but|also|so|then|what about|how about|what of|and what|same for)\b/i;
const ZH_ELLIPSIS = /^\s*(?:那么?|还有|以及|另外|而|和|跟|同样)|呢\s*[？?]?\s*$/u;
/** Words that say what is asked without naming what it is about: 结果, status, details. */
const GENERIC =
  /^(?:结果|情况|怎么样|怎样|如何|详细|细节|具体|更多|进展|原因|之前|以前|后来|现在|还|呢|介绍|说说|一下|result|results|status|detail|details|more|outcome|progress|reason|why|before|previous|earlier|now|then|tell|about|else|explain|compare|other)$/i;

/** Turns further back than this are not searched for what a follow-up refers to. */
const LOOKBACK_TURNS = 4;

/** Whether a question needs earlier turns to be understood (pronoun, ellipsis, no content words). */
export function isFollowUp(question: string): boolean {
  return (
    ZH_ANAPHORA.test(question) ||
    EN_ANAPHORA.test(question) ||
    EN_ELLIPSIS.test(question) ||
    ZH_ELLIPSIS.test(question) ||
    ownTerms(question).length === 0
  );
}

/** An answer without its leading label line ("Offline extractive answer (...):"). */
function answerBody(answer: string): string {
  return answer.replace(/^[^\n]*[:：]\s*\n/u, '');
}

function ownTerms(question: string): string[] {
  return contentTerms(question).filter((t) => !GENERIC.test(t));
}

/** A pronoun standing for a thing or a person, replaced by the subject it stands for. */
const ZH_PRONOUN = /它们|他们|她们|[它他她其]/u;
/** A demonstrative and the noun after it: "该学院", "这个项目". */
const ZH_DEMONSTRATIVE =
  /(?:这个|那个|这项|那项|这位|那位|该|此|这|那)(\p{Script=Han}{1,4}?)(?=[的是有在于为和与，,。？?]|$)/u;
const EN_PRONOUN = /\b(?:it|its|they|them|their|this|that|he|him|his|she|her)\b/i;
/** Ellipsis openers dropped before the subject is put in front: "那预算呢" -> "星河计划预算呢". */
const ZH_OPENER = /^\s*(?:那么|那|还有|以及|另外|而|和|跟|同样)(?![么个些项位])/u;

interface Subject {
  /** The words as they stand in the turn that named it. */
  phrase: string;
  /** The turn (from 1) that named it. */
  turn: number;
}

/**
 * The subject of a conversation: what the latest question that names something is about
 * (`subjectPhrase` of its question, or what an earlier rewrite put into a follow-up, so a chain of
 * follow-ups keeps it), the latest that `fits` when given; usually the first question's. Without
 * `fits`, when no question names anything: the latest question's nouns (`nounPhrase`), and only
 * then what the latest answer names. An entity an answer brought in never replaces one a question
 * asked about.
 */
export function conversationSubject(
  turns: readonly Turn[],
  fits?: (phrase: string) => boolean,
): Subject | undefined {
  const asked = (turn: Turn) => turn.standalone_question ?? turn.question;
  const pick = (find: (turn: Turn) => string | undefined, from = 0) => {
    for (let i = turns.length - 1; i >= from; i -= 1) {
      const phrase = find(turns[i] as Turn);
      if (phrase && (!fits || fits(phrase))) return { phrase, turn: i + 1 };
    }
    return undefined;
  };
  const named =
    pick((turn) => inserted(turn) ?? subjectPhrase(asked(turn))) ??
    pick((turn) => subjectPhrase(turn.question));
  if (named || fits) return named;
  return (
    pick((turn) => nounPhrase(asked(turn))) ??
    pick((turn) => subjectPhrase(answerBody(turn.answer)), turns.length - 1)
  );
}

/**
 * What a rewrite put in place of a pronoun or in front of a follow-up: "李明" of "他之前..." ->
 * "李明之前...". The offline resolution records it (`subject`); a model's rewrite (or a turn stored
 * before it was recorded) is compared with its question, which falls short where the subject was
 * joined to the question's own words ("学院的院长是谁" -> "中国人民大学文学院的院长是谁").
 */
function inserted(turn: Turn): string | undefined {
  if (turn.subject) return turn.subject;
  const out = turn.standalone_question;
  if (!out || out === turn.question) return undefined;
  const a = [...turn.question];
  const b = [...out];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a.at(-1 - tail) === b.at(-1 - tail)) tail += 1;
  const put = b
    .slice(head, b.length - tail)
    .join('')
    .replace(/^[\s(（]+/u, '')
    .replace(/(?:['’]s)?[\s)）]*$/u, '');
  return put.length >= 2 ? put : undefined;
}

/**
 * Offline follow-up resolution (no model). A question that names what it is about and has no
 * pronoun or ellipsis is returned unchanged with no turns; so is any question when no earlier turn
 * named anything. Otherwise the conversation's subject (`conversationSubject`: the thing the
 * questions asked about, never an entity an answer brought in) is written into the question: in
 * place of a pronoun ("它成立于哪一年" -> "中国人民大学文学院成立于哪一年", "And who led it?" ->
 * "And who led Project Borealis?"), of a demonstrative and its noun ("该学院"), of the part of the
 * subject the question starts with ("学院的院长是谁"), else in front of it ("保研率是多少" ->
 * "中国人民大学文学院保研率是多少"; English: after it, in brackets). A pronoun takes the latest subject
 * when it can stand for it (他 or she not a project, 它 or it not a person, by the phrase's form);
 * else the first entity it can stand for that the latest answer names beside the subject
 * (`namedBeside`: 李明, answering "星河计划的负责人是谁"), else an earlier subject it can stand for. `from_turns` is the turn the inserted words come from.
 *
 * @example resolveFollowUp('它成立于哪一年', [{ question: '中国人民大学文学院前身是什么', answer: '1939年，陕北公学……' }])
 * // { standalone_question: '中国人民大学文学院成立于哪一年', from_turns: [1] }
 */
export function resolveFollowUp(question: string, turns: Turn[]): Rewrite {
  const unchanged = { standalone_question: question, from_turns: [] };
  const anaphoric = ZH_ANAPHORA.test(question) || EN_ANAPHORA.test(question);
  const elliptical = EN_ELLIPSIS.test(question) || ZH_ELLIPSIS.test(question);
  if (turns.length === 0 || (!anaphoric && !elliptical && subjectPhrase(question))) return unchanged;
  const subject = conversationSubject(turns);
  if (!subject) return unchanged;
  // A pronoun points at a person (他, she) or a thing (它, it). When the latest subject cannot be
  // it, what the answer names beside the subject is ("他" after "星河计划的负责人是谁": 李明), else an
  // earlier subject that can be.
  const wanted = PERSON_PRONOUN.test(question)
    ? 'person'
    : THING_PRONOUN.test(question)
      ? 'thing'
      : undefined;
  const canStandFor = (phrase: string) => {
    const kind = entityKind(phrase.toLowerCase());
    return kind === wanted || kind === 'unknown';
  };
  const referent =
    !wanted || canStandFor(subject.phrase)
      ? subject
      : (namedBeside(subject, turns, canStandFor) ?? conversationSubject(turns, canStandFor) ?? subject);
  if (question.toLowerCase().includes(referent.phrase.toLowerCase())) return unchanged;
  const standalone = hasCjk(question)
    ? insertZh(question, referent.phrase)
    : insertEn(question, referent.phrase);
  return { standalone_question: standalone, from_turns: [referent.turn], subject: referent.phrase };
}

function insertZh(question: string, subject: string): string {
  // Replacer functions: a subject holding "$&" is text, not a pattern.
  if (ZH_PRONOUN.test(question)) return question.replace(ZH_PRONOUN, () => subject);
  const demonstrative = ZH_DEMONSTRATIVE.exec(question);
  if (demonstrative) {
    const noun = demonstrative[1] ?? '';
    return question.replace(demonstrative[0], () => (subject.endsWith(noun) ? subject : subject + noun));
  }
  // The question starts with the subject's last words: "学院的院长是谁" after "...文学院...".
  const chars = [...subject];
  for (let k = Math.min(chars.length - 1, 6); k >= 2; k -= 1) {
    const tail = chars.slice(-k).join('');
    if (question.startsWith(tail)) return subject + question.slice(tail.length);
  }
  return subject + question.replace(ZH_OPENER, '');
}

function insertEn(question: string, subject: string): string {
  const pronoun = EN_PRONOUN.exec(question);
  if (pronoun) {
    const possessive = /^(?:its|their|his|her)$/i.test(pronoun[0]);
    return question.replace(pronoun[0], () => (possessive ? `${subject}'s` : subject));
  }
  return question.replace(/\s*([?.!])?\s*$/u, (_, end = '') => ` (${subject})${end}`);
}

/**
 * The first entity the latest answers name in a sentence about the subject that `fits` a pronoun
 * the subject cannot stand for: "他" after "星河计划的负责人是谁" is the person the answer names
 * beside 星河计划, "它" after a question about 李明 the project the answer names beside him.
 */
function namedBeside(
  subject: Subject,
  turns: readonly Turn[],
  fits: (entity: string) => boolean,
): Subject | undefined {
  const named = subject.phrase.toLowerCase();
  for (let i = turns.length - 1; i >= Math.max(0, turns.length - LOOKBACK_TURNS); i -= 1) {
    const sentences = splitSentences(answerBody((turns[i] as Turn).answer));
    for (const sentence of sentences.filter((s) => s.toLowerCase().includes(named)))
      for (const entity of namedEntities(sentence))
        if (fits(entity) && !named.includes(entity) && !entity.includes(named))
          return { phrase: originalCase(sentence, entity), turn: i + 1 };
  }
  return undefined;
}

/** The words of `lowered` as they are written in `text` ("maria chen" -> "Maria Chen"). */
function originalCase(text: string, lowered: string): string {
  const at = text.toLowerCase().indexOf(lowered);
  return at < 0 ? lowered : text.slice(at, at + lowered.length);
}
