import type { Document, Element } from 'domhandler';
import { elements } from './package.ts';

const HEADING_STYLE = /^Heading_20_(\d)$/;

function styleElements(doc: Document | undefined): Element[] {
  if (!doc) return [];
  const out: Element[] = [];
  const visit = (node: { children: unknown[] }) => {
    for (const child of elements(node)) {
      if (child.name === 'style:style' && child.attribs['style:family'] === 'paragraph') out.push(child);
      else if (child.name !== 'text:p' && child.name !== 'text:h') visit(child);
    }
  };
  visit(doc);
  return out;
}

/**
 * The outline level each paragraph style gives its paragraphs: its own `style:default-outline-level`,
 * a built-in "Heading N" name, else its parent's (automatic styles such as `P1` derive from
 * "Heading 1"). LibreOffice writes a converted Word heading as `<text:p text:style-name="Heading_20_1">`,
 * not `<text:h>`, so the styles decide as much as the element.
 */
export function outlineLevels(...docs: (Document | undefined)[]): Map<string, number> {
  const styles = new Map<string, Element>();
  for (const doc of docs)
    for (const style of styleElements(doc)) styles.set(style.attribs['style:name'] ?? '', style);
  const levels = new Map<string, number>();
  const levelOf = (name: string, depth: number): number | undefined => {
    if (levels.has(name)) return levels.get(name);
    const style = styles.get(name);
    const own = Number(style?.attribs['style:default-outline-level']);
    const named = HEADING_STYLE.exec(name)?.[1];
    const parent = style?.attribs['style:parent-style-name'];
    const level =
      own > 0 ? own : named ? Number(named) : parent && depth < 20 ? levelOf(parent, depth + 1) : undefined;
    if (level !== undefined) levels.set(name, level);
    return level;
  };
  for (const name of styles.keys()) levelOf(name, 0);
  return levels;
}
