/**
 * Heading style names: English and the names Word gives them in other languages (Chinese, German,
 * French, Spanish, Italian, Portuguese, Dutch, Japanese, Korean, Russian), followed by the level.
 */
const HEADING =
  /^(?:heading|标题|標題|見出し|제목|überschrift|titre|título|titulo|titolo|kop|заголовок)\s*([1-9])$/i;
/** The document title style. "标题" alone is Word's Chinese name for Title (its headings are "标题 1"). */
const TITLE = /^(?:title|标题|標題|表題|titel|titre|título|titolo|заголовок|제목)$/i;

/**
 * The heading level (1..9) a paragraph style stands for, 0 for the Title style, undefined for body
 * text. Matches the style name, then the style id (localized documents keep ids like "Heading1" or
 * "1" with a translated name).
 *
 * @example headingLevel('标题 2', '2') // 2
 */
export function headingLevel(styleName: string | null, styleId: string | null): number | undefined {
  for (const candidate of [styleName, styleId]) {
    const name = candidate?.trim();
    if (!name) continue;
    const heading = HEADING.exec(name);
    if (heading) return Number(heading[1]);
    if (TITLE.test(name)) return 0;
  }
  return undefined;
}
