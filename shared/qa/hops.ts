import { segment } from '#shared/text/segment.ts';
import { isStopWord } from '#shared/text/stop-words.ts';
import { namedEntities } from './conversation/entities.ts';

/** Entities carried to the next hop, at most. */
export const MAX_BRIDGES = 2;
/** Hops chained offline after the question's own search: the lead of Atlas -> Dana Whitfield -> Borealis. */
export const MAX_HOPS = 2;

/**
 * The entities a passage adds to a question (the bridge of a multi-hop question, docs/spec.md#multi-hop:
 * "the lead of Atlas" -> "dana whitfield" -> her other project): the names the sentences state
 * (`namedEntities`: capitalised English names, Chinese names, "X项目") whose search tokens are not
 * all in the question (and the hops before). In order of appearance, at most `max`.
 *
 * @example bridgeEntities('Which other project did the lead of Atlas run?', ['The project lead of Atlas is Dana Whitfield.'])
 * // ['dana whitfield']
 */
export function bridgeEntities(asked: string, sentences: string[], max = MAX_BRIDGES): string[] {
  const known = new Set(segment(asked));
  const found: string[] = [];
  for (const entity of sentences.flatMap((s) => namedEntities(s))) {
    const tokens = segment(entity);
    if (tokens.length === 0 || tokens.every((t) => known.has(t)) || found.includes(entity)) continue;
    found.push(entity);
  }
  return found.slice(0, max);
}

/** Questions that ask for more than the first fact found: "还负责过哪些项目", "what other projects". */
const MULTI_HOP = /还|其他|其它|另外|别的|以外|\b(?:also|other|else|another|besides)\b/i;

/**
 * Whether the question asks for a second hop ("what else", "还有哪些").
 *
 * @example isMultiHop('Which other project did the lead of Atlas run?') // true
 */
export function isMultiHop(question: string): boolean {
  return MULTI_HOP.test(question);
}

/** Question words carry nothing to search for ("which", "哪些"). */
const QUESTION_WORD =
  /^(?:what|which|who|whom|whose|when|where|why|how|did|does|do|was|were|its|their|哪些|哪个|什么|多少|如何|怎么|谁)$/i;

/**
 * The search for one hop: the entity and the question's terms that no passage quoted so far
 * contains ("Dana Whitfield" + "run result" for "Which other project did the lead of Atlas run, and
 * what was its result?" once "The project lead of Atlas is Dana Whitfield." is quoted).
 *
 * @example hopQuery('Borealis', 'What was its result?', ['Dana Whitfield also led Borealis.']) // 'Borealis result'
 */
export function hopQuery(entity: string, question: string, quoted: string[]): string {
  const seen = new Set([...quoted.flatMap((s) => segment(s)), ...segment(entity)]);
  const missing = [...new Set(segment(question))].filter(
    (t) => !seen.has(t) && !isStopWord(t) && !QUESTION_WORD.test(t),
  );
  return [entity, ...missing].join(' ');
}
