/** The tag pattern of each element name, compiled once (the rewrite looks up thousands of ends). */
const TAGS = new Map<string, RegExp>();

/**
 * The index just past the element that opens at `start` (`<w:drawing …>` … its matching
 * `</w:drawing>`, nested ones of the same name counted), or past its `/>` when it is empty. The
 * end of the text when it is never closed.
 */
export function elementEnd(xml: string, start: number, name: string): number {
  let tags = TAGS.get(name);
  if (!tags) {
    tags = new RegExp(`<(/?)${name.replace(/[.:]/g, '\\$&')}(?=[\\s>/])[^>]*?(/?)>`, 'g');
    TAGS.set(name, tags);
  }
  tags.lastIndex = start;
  let depth = 0;
  for (let match = tags.exec(xml); match; match = tags.exec(xml)) {
    if (match[1]) depth--;
    else if (!match[2]) depth++;
    if (depth <= 0) return match.index + match[0].length;
  }
  return xml.length;
}

/** The content between an element's start tag and its end tag ('' for an empty element). */
export function innerXml(element: string): string {
  const open = element.indexOf('>');
  if (open < 0 || element[open - 1] === '/') return '';
  return element.slice(open + 1, element.lastIndexOf('</'));
}
