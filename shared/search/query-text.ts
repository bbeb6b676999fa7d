import { cjkRuns, cutWords } from '#shared/text/segment.ts';

/**
 * Words that ask for the missing item of a question: 谁, 什么, 哪些, 多少, 几月 ... and who, what,
 * which, when, where. A passage holding the answer rarely holds them, so as search terms they only
 * find passages that happen to contain them ("谁" in an interview about something else outranked
 * the passage naming the university's president: domainrag-dev, README "Retrieval quality").
 * Words that say what kind of answer is wanted (如何, 为什么, how, why) stay: FAQ pages use them.
 */
const ZH_ASKING = new Set(
  '谁 什么 啥 哪 哪些 哪个 哪里 哪儿 哪位 哪年 哪一年 哪天 多少 几 几个 几月 几号 几日 几年 几时 何时 何地'.split(
    ' ',
  ),
);
const EN_ASKING = /\b(?:who|whom|whose|what|which|when|where)\b/giu;

/**
 * The text a question is searched by: its asking words replaced by a break (so no character pair
 * forms across them). Chinese is cut by jieba's precise mode first, so a name holding such a
 * character (哪吒) stays whole.
 *
 * @example searchableQuery('中国人民大学的校长是谁？') // '中国人民大学的校长是 ？'
 */
export function searchableQuery(question: string): string {
  let text = question.normalize('NFKC').replace(EN_ASKING, ' ');
  for (const run of new Set(cjkRuns(text))) {
    const words = cutWords(run);
    if (!words.some((word) => ZH_ASKING.has(word))) continue;
    const kept = words.map((word) => (ZH_ASKING.has(word) ? ' ' : word)).join('');
    text = text.split(run).join(kept);
  }
  return text;
}
