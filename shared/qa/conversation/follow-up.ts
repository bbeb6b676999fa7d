import { hasCjk, segment } from '#shared/text/segment.ts';
import { splitSentences } from '#shared/text/sentences.ts';
import { contentTerms } from '../agent/evaluate.ts';
import { entityKind, keyTerms, namedEntities } from './entities.ts';
import type { Rewrite, Turn } from './turns.ts';

/** Pronouns and demonstratives that point back at something named earlier. */
const ZH_ANAPHORA =
  /它们|他们|她们|[它他她其该此]|这个|那个|这些|那些|这项|那项|这位|那位|上述|前者|后者|之前提到|刚才/u;
const EN_ANAPHORA =
  /\b(?:it|its|they|them|their|theirs|this|that|these|those|he|him|his|she|her|hers|former|latter|same|ones?)\b/i;
/** Pronouns that point at a person, and those that point at a thing. */
const PERSON_PRONOUN = /[他她]|\b(?:he|she|him|his|her|hers)\b/i;
const THING_PRONOUN = /它|[其该此]|这个|那个|这项|那项|\b(?:it|its)\b/i;
/** Ellipsis: "and the budget?", "what about 2023?", "那预算呢？", "还有风险吗". */
const EN_ELLIPSIS = /^\s*(?:and|or|but|also|so|then|what about|how about|what of|and what|same for)\b/i;
const ZH_ELLIPSIS = /^\s*(?:那么?|还有|以及|另外|而|和|跟|同样)|呢\s*[？?]?\s*$/u;
/** Words that say what is asked without naming what it is about: 结果, status, details. */
const GENERIC =
  /^(?:结果|情况|怎么样|怎样|如何|详细|细节|具体|更多|进展|原因|之前|以前|后来|现在|还|呢|介绍|说说|一下|result|results|status|detail|details|more|outcome|progress|reason|why|before|previous|earlier|now|then|tell|about|else|explain|compare|other)$/i;

/** How much an earlier turn counts per step back in the conversation. */
const RECENCY_DECAY = 0.5;
/** Turns further back than this are not searched for what a follow-up refers to. */
const LOOKBACK_TURNS = 4;
/** At most this many terms are added. */
const MAX_ADDED_TERMS = 3;

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

interface Candidate {
  term: string;
  score: number;
  turn: number;
}

/**
 * Offline follow-up resolution (no model). A question that stands alone is returned unchanged with
 * no turns. Otherwise the recent turns' candidates are ranked by salience times recency (each turn
 * back counts half): the named entities an answer brought in (what "he", "it", "这个" usually point
 * at: "李明" answering "星河计划的负责人是谁？") before the entities of the question. A question with
 * a pronoun or demonstrative gets the best candidate of the kind it points at (he/她 a person,
 * it/它 a project or organisation, by the entity's form; one antecedent). When no entity fits,
 * and for an elliptical question or one without content words of its own ("and the budget?"), the
 * subject of the latest turn that has one is added (its question's entities, else its key
 * words). Terms the question already has are never added; `from_turns` are the numbers (from 1) of
 * the turns the added terms come from.
 *
 * @example resolveFollowUp('他之前负责的项目结果如何？', [{ question: '星河计划的负责人是谁？', answer: '负责人是李明。' }])
 * // { standalone_question: '他之前负责的项目结果如何？（李明）', from_turns: [1] }
 */
export function resolveFollowUp(question: string, turns: Turn[]): Rewrite {
  const unchanged = { standalone_question: question, from_turns: [] };
  if (turns.length === 0 || !isFollowUp(question)) return unchanged;
  const asked = new Set(segment(question));
  const lowered = question.toLowerCase();
  const isNew = (term: string) => !asked.has(term) && !lowered.includes(term) && !GENERIC.test(term);
  const anaphoric = ZH_ANAPHORA.test(question) || EN_ANAPHORA.test(question);
  const chosen: Candidate[] = [];
  const first = Math.max(0, turns.length - LOOKBACK_TURNS);
  if (anaphoric) {
    const candidates: Candidate[] = [];
    for (let i = turns.length - 1; i >= first; i -= 1) {
      const weight = RECENCY_DECAY ** (turns.length - 1 - i);
      const { subject, brought } = turnTerms(turns[i] as Turn);
      // Within a turn, earlier-named entities first: the answer's lead entity, then the subject's.
      const rank = (terms: string[], base: number) =>
        terms.map((term, k) => ({ term, score: weight * (base - 0.05 * k), turn: i + 1 }));
      candidates.push(...rank(brought, 1), ...rank(subject, 0.8));
    }
    const wanted = PERSON_PRONOUN.test(question)
      ? 'person'
      : THING_PRONOUN.test(question)
        ? 'thing'
        : undefined;
    const fits = (term: string) => {
      const kind = entityKind(term);
      return !wanted || kind === 'unknown' || kind === wanted;
    };
    const best = candidates.filter((c) => isNew(c.term) && fits(c.term)).sort((a, b) => b.score - a.score)[0];
    if (best) chosen.push(best);
  }
  if (chosen.length === 0) {
    for (let i = turns.length - 1; i >= first && chosen.length === 0; i -= 1) {
      const { subject, keywords } = turnTerms(turns[i] as Turn);
      const terms = (subject.length > 0 ? subject : keywords).filter(isNew).slice(0, MAX_ADDED_TERMS);
      for (const term of terms) chosen.push({ term, score: 1, turn: i + 1 });
    }
  }
  if (chosen.length === 0) return unchanged;
  const terms = chosen.map((c) => c.term);
  return {
    standalone_question: hasCjk(question)
      ? `${question}（${terms.join('，')}）`
      : `${question} (${terms.join(', ')})`,
    from_turns: [...new Set(chosen.map((c) => c.turn))].sort((a, b) => a - b),
  };
}

/** The terms an offline rewrite added: "他负责什么？（李明）" -> ['李明']. */
const ADDED_TERMS = /[（(]([^（）()]+)[)）]\s*$/u;
function addedTerms(turn: Turn): string[] {
  if (!turn.standalone_question?.startsWith(turn.question)) return [];
  const added = ADDED_TERMS.exec(turn.standalone_question.slice(turn.question.length));
  return added ? (added[1] ?? '').split(/[,，]\s*/u).filter(Boolean) : [];
}

/**
 * What an earlier turn offers a follow-up: its subject (the entities of its question, with what a
 * rewrite resolved, so a chain of follow-ups keeps it), the entities its answer brought in (first
 * those of sentences about the subject: "李明此前负责北斗项目" answering a question about 李明), and
 * its question's key words.
 */
function turnTerms(turn: Turn): { subject: string[]; brought: string[]; keywords: string[] } {
  const subject = [
    ...new Set([...namedEntities(turn.standalone_question ?? turn.question), ...addedTerms(turn)]),
  ];
  const sentences = splitSentences(answerBody(turn.answer));
  const about = (sentence: string) => subject.some((s) => sentence.toLowerCase().includes(s));
  const brought = [...sentences.filter(about), ...sentences.filter((x) => !about(x))]
    .flatMap(namedEntities)
    .filter((e) => !subject.some((s) => s.includes(e) || e.includes(s)));
  const keywords = keyTerms(turn.question).filter((t) => !GENERIC.test(t));
  return { subject, brought: [...new Set(brought)].slice(0, 3), keywords };
}
