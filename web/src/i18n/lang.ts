const HAN = /\p{Script=Han}/gu;
const LATIN = /\p{Script=Latin}/gu;

/**
 * The language of a piece of user content (a file name, a title, an answer) for its `lang`
 * attribute: `zh` when its Han characters number at least a third of its Latin letters (a Han
 * character carries about a word), else `en`; undefined
 * for text without letters, which then inherits the page's language.
 *
 * @example langOf('项目计划.docx') // 'zh'
 */
export function langOf(text: string | null | undefined): 'zh' | 'en' | undefined {
  if (!text) return undefined;
  const han = text.match(HAN)?.length ?? 0;
  const latin = text.match(LATIN)?.length ?? 0;
  if (han + latin === 0) return undefined;
  return han * 3 >= latin ? 'zh' : 'en';
}
