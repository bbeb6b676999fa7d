import { segment, tagWords } from '#shared/index/segment.ts';
import { isStopWord } from '#shared/llm/offline/stop-words.ts';

/** Entities carried to the next hop, at most. */
export const MAX_BRIDGES = 2;
/** Hops chained offline after the question's own search: the lead of Atlas -> Dana Whitfield -> Borealis. */
export const MAX_HOPS = 2;

/** English names: runs of capitalised words ("Dana Whitfield", "Project Borealis", "Q3"). */
const NAME = /\p{Lu}[\p{L}\p{N}'’-]*(?:\s+\p{Lu}[\p{L}\p{N}'’-]*)*/gu;
/** Chinese values after a copula or colon ("负责人：张三", "由李四负责"). */
const ZH_VALUE = /(?:[：:是为由])\s*([\p{Script=Han}]{2,4})(?=负责|主导|牵头|[，。；、\s]|$)/gu;
/** jieba tags of names: person, place, organisation, other proper noun. */
const ZH_NAME = /^(?:nr|nrt|ns|nt|nz)$/;

/**
 * The entities a passage adds to a question (the bridge of a multi-hop question, seed 000 §8.2:
 * "the lead of Atlas" -> "Dana Whitfield" -> her other project): names the sentences state that the
 * question (and the hops before) does not contain — English capitalised names less their leading
 * function words, Chinese person, place and organisation names and the values after 是/为/由/：.
 * In order of appearance, at most `max`.
 *
 * @example bridgeEntities('Which other project did the lead of Atlas run?', ['The project lead of Atlas is Dana Whitfield.'])
 * // ['Dana Whitfield']
 */
export function bridgeEntities(asked: string, sentences: string[], max = MAX_BRIDGES): string[] {
  const known = new Set(segment(asked));
  const found: string[] = [];
  const add = (entity: string) => {
    const tokens = segment(entity);
    if (tokens.length === 0 || tokens.every((t) => known.has(t))) return;
    if (found.some((f) => f.toLowerCase() === entity.toLowerCase())) return;
    found.push(entity);
  };
  for (const sentence of sentences) {
    for (const match of sentence.matchAll(NAME)) {
      const words = match[0].split(/\s+/);
      while (words.length > 0 && isStopWord(words[0] ?? '')) words.shift();
      const name = words.join(' ');
      if (name.length >= 2 && !/^\p{N}+$/u.test(name)) add(name);
    }
    for (const match of sentence.matchAll(ZH_VALUE)) if (match[1] && !isStopWord(match[1])) add(match[1]);
    if (/\p{Script=Han}/u.test(sentence))
      for (const { word, tag } of tagWords(sentence))
        if (ZH_NAME.test(tag) && [...word].length >= 2 && !isStopWord(word)) add(word);
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
