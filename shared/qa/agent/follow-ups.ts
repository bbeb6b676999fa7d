import type { SearchHit } from '#shared/search/types.ts';
import { pickAnswerSentences } from '#shared/text/answer.ts';
import { segment } from '#shared/text/segment.ts';
import { answerContexts } from '../answer-contexts.ts';

/** Words after which a sentence names the value the question asks for: "负责人：张三", "owner is Alice". */
const VALUE_AFTER = /(?:[：:是为由]|\bis\b|\bby\b)\s*([^\s，。,.;；、()（）]{2,16})/gi;

export { isMultiHop } from '../hops.ts';

/**
 * Terms that lead to the next hop of a multi-hop question (docs/spec.md#multi-hop: A's lead ->
 * Zhang San -> his other projects): in the evidence sentence that best matches the question, the
 * values stated after a colon or "is"/"是"/"由", else its words the question does not contain; at
 * most two.
 *
 * @example followUpTerms('A项目负责人还负责过哪些项目？', [hit('项目负责人：张三。')]) // ['张三']
 */
export function followUpTerms(question: string, hits: SearchHit[]): string[] {
  const [best] = pickAnswerSentences(question, answerContexts(hits), { maxSentences: 1 });
  if (!best) return [];
  const asked = new Set(segment(question));
  const values = [...best.text.matchAll(VALUE_AFTER)]
    .map((m) => (m[1] ?? '').trim())
    .filter((v) => v && !asked.has(v.toLowerCase()) && !question.includes(v));
  if (values.length > 0) return [...new Set(values)].slice(0, 2);
  return [...new Set(segment(best.text))]
    .filter((w) => !asked.has(w) && [...w].length >= 2 && !/^\d+$/.test(w))
    .slice(0, 2);
}
