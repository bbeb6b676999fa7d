// saxes rather than fast-xml-parser: it never processes a DTD (an entity declared in an internal
// subset is an "undefined entity" error, so no billion-laughs expansion can happen), it reports
// elements in document order (the reading order of mixed shapes in a slide is the point), and it is
// already installed with exceljs. fast-xml-parser would need its preserveOrder mode for the order,
// and the only copy installed here is a 3.x that has none.
import { SaxesParser } from 'saxes';

/** An element of a parsed XML part: its local name (prefix dropped), attributes as written, children. */
export interface XmlElement {
  name: string;
  /** Qualified attribute names as written (`r:embed`, `type`). */
  attributes: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

/** Elements whose whitespace-only text is content: DrawingML runs (`a:t`) and chart values (`c:v`). */
const TEXT_ELEMENTS = new Set(['t', 'v']);
/**
 * Formatting that no reader of the tree looks at (run, shape, cell and text-body properties, list
 * styles, extensions): left out of the tree, which halves the objects a verbose slide makes.
 */
export const FORMATTING: ReadonlySet<string> = new Set([
  'rPr',
  'endParaRPr',
  'defRPr',
  'spPr',
  'tcPr',
  'bodyPr',
  'lstStyle',
  'txPr',
  'style',
  'extLst',
]);

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/**
 * Parses an XML part into a tree of elements with local names, the `skip` elements (formatting,
 * unless told otherwise) left out.
 * Whitespace-only text between elements is dropped, except inside `t` and `v` elements. Throws on malformed XML and on any
 * entity other than the five predefined ones and character references.
 *
 * @example child(parseXml('<p:sld><p:cSld/></p:sld>'), 'cSld') // { name: 'cSld', ... }
 */
export function parseXml(text: string, skip: ReadonlySet<string> = FORMATTING): XmlElement {
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  const root: XmlElement = { name: '', attributes: {}, children: [] };
  const stack: XmlElement[] = [root];
  /** Depth inside a formatting element being left out; 0 outside. */
  let skipping = 0;
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (skipping > 0 || skip.has(name)) {
      skipping++;
      return;
    }
    const element: XmlElement = { name, attributes: tag.attributes, children: [] };
    stack.at(-1)?.children.push(element);
    stack.push(element);
  });
  parser.on('closetag', () => {
    if (skipping > 0) skipping--;
    else stack.pop();
  });
  parser.on('text', (value) => {
    const parent = stack.at(-1);
    if (skipping === 0 && parent && (TEXT_ELEMENTS.has(parent.name) || value.trim() !== '')) {
      parent.children.push(value);
    }
  });
  parser.on('cdata', (value) => {
    if (skipping === 0) stack.at(-1)?.children.push(value);
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(text).close();
  const top = root.children.find((node): node is XmlElement => typeof node !== 'string');
  if (!top) throw new Error('the part has no root element');
  return top;
}

/** The first child element with this local name. */
export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!element) return undefined;
  for (const node of element.children) if (typeof node !== 'string' && node.name === name) return node;
  return undefined;
}

/** The child elements with this local name, in order. */
export function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  if (!element) return [];
  return element.children.filter(
    (node): node is XmlElement => typeof node !== 'string' && node.name === name,
  );
}

/** Follows a path of child names (`path(sp, 'nvSpPr', 'nvPr', 'ph')`). */
export function path(element: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let at = element;
  for (const name of names) at = child(at, name);
  return at;
}

/** The first descendant with this local name, depth first in document order. */
export function descendant(element: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!element) return undefined;
  for (const node of element.children) {
    if (typeof node === 'string') continue;
    if (node.name === name) return node;
    const found = descendant(node, name);
    if (found) return found;
  }
  return undefined;
}

/** All descendants with this local name, in document order (not looking inside a match). */
export function descendants(
  element: XmlElement | undefined,
  name: string,
  out: XmlElement[] = [],
): XmlElement[] {
  if (!element) return out;
  for (const node of element.children) {
    if (typeof node === 'string') continue;
    if (node.name === name) out.push(node);
    else descendants(node, name, out);
  }
  return out;
}

/** The concatenated text directly inside an element. */
export function ownText(element: XmlElement | undefined): string {
  if (!element) return '';
  let text = '';
  for (const node of element.children) if (typeof node === 'string') text += node;
  return text;
}
