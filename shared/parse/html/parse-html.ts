import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { createImageCollector, type ImageCollector } from '../image-collector.ts';
import { createOutline, type OutlineBuilder } from '../outline.ts';
import { pipeTable } from '../pipe-table.ts';
import { titleFromFilename } from '../title.ts';
import type { ImageNode, ParsedDocument, ParseInput, Parser, TreeNode } from '../types.ts';
import { decodeHtml } from './charset.ts';

/** Never content: code, styles, embedded frames and forms' hidden parts. */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'head',
]);
/** Navigation boilerplate around a page's content. */
const BOILERPLATE = new Set(['nav', 'aside', 'footer', 'header']);
const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
/** Elements that end the paragraph before them and start a new one. */
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'blockquote',
  'pre',
  'address',
  'figure',
  'figcaption',
  'dl',
  'dt',
  'dd',
  'hr',
  'form',
  'fieldset',
  'details',
  'summary',
  'center',
  'body',
  'html',
]);
const HEADING = /^h([1-6])$/;

function isElement(node: AnyNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

function isBoilerplate(element: Element): boolean {
  if (DROPPED.has(element.name)) return true;
  if (element.attribs.hidden !== undefined || element.attribs['aria-hidden'] === 'true') return true;
  return BOILERPLATE.has(element.name) || BOILERPLATE_ROLES.has(element.attribs.role ?? '');
}

/** An element's text as a reader sees it: whitespace collapsed, line breaks kept, boilerplate left out. */
function textOf(node: AnyNode): string {
  if (node.type === 'text') return (node as unknown as { data: string }).data;
  if (!isElement(node) || isBoilerplate(node)) return '';
  if (node.name === 'br') return '\n';
  const inner = node.children.map(textOf).join('');
  return BLOCKS.has(node.name) || node.name === 'li' || node.name === 'tr' ? `\n${inner}\n` : inner;
}

function clean(text: string): string {
  if (!text.includes('\n')) return text.replace(/\s+/g, ' ').trim();
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

interface Walk {
  outline: OutlineBuilder;
  /** Image nodes placed where their `img` is, filled in (or dropped) once the images are read. */
  images: { node: ImageNode; src: string }[];
  inline: string;
}

function flush(walk: Walk): void {
  const text = clean(walk.inline);
  if (text) walk.outline.leaf({ type: 'paragraph', text });
  walk.inline = '';
}

function listItems(list: Element): string[] {
  return list.children
    .filter((child): child is Element => isElement(child) && child.name === 'li')
    .map((item) => clean(textOf(item)).replace(/\n/g, ' '))
    .filter(Boolean);
}

function tableRows(table: Element): string[][] {
  const rows: string[][] = [];
  const visit = (node: AnyNode) => {
    if (!isElement(node) || isBoilerplate(node)) return;
    if (node.name === 'tr') {
      const cells = node.children
        .filter((cell): cell is Element => isElement(cell) && (cell.name === 'td' || cell.name === 'th'))
        .map((cell) => clean(textOf(cell)).replace(/\n/g, ' '));
      if (cells.some(Boolean)) rows.push(cells);
      return;
    }
    if (node.name !== 'table' || node === table) node.children.forEach(visit);
  };
  visit(table);
  return rows;
}

/** The walk is synchronous (a promise per element costs more than the parsing); images are read after it. */
function walkNode(node: AnyNode, walk: Walk): void {
  if (node.type === 'text') {
    walk.inline += (node as unknown as { data: string }).data;
    return;
  }
  if (!isElement(node) || isBoilerplate(node)) return;
  const heading = HEADING.exec(node.name);
  if (heading) {
    flush(walk);
    const title = clean(textOf(node)).replace(/\n/g, ' ');
    if (title) walk.outline.heading(Number(heading[1]), title);
    return;
  }
  switch (node.name) {
    case 'br':
      walk.inline += '\n';
      return;
    case 'img': {
      flush(walk);
      const src = node.attribs.src?.trim();
      if (!src) return;
      const image: ImageNode = { type: 'image', name: '', alt: node.attribs.alt ?? '' };
      walk.images.push({ node: image, src });
      walk.outline.leaf(image);
      return;
    }
    case 'ul':
    case 'ol': {
      flush(walk);
      const items = listItems(node);
      const ordered = node.name === 'ol';
      const text = items.map((item, i) => `${ordered ? `${i + 1}.` : '-'} ${item}`).join('\n');
      if (text) walk.outline.leaf({ type: 'paragraph', text, metadata: { kind: 'list', ordered } });
      return;
    }
    case 'table': {
      flush(walk);
      const rows = tableRows(node);
      if (rows.length > 0) walk.outline.leaf({ type: 'table', text: pipeTable(rows), rows });
      return;
    }
  }
  const block = BLOCKS.has(node.name) || node.name === 'li';
  if (block) flush(walk);
  for (const child of node.children) walkNode(child, walk);
  if (block) flush(walk);
}

/** The tree without the given nodes (images that could not be read). */
function without(nodes: TreeNode[], dropped: Set<TreeNode>): TreeNode[] {
  if (dropped.size === 0) return nodes;
  return nodes
    .filter((node) => !dropped.has(node))
    .map((node) => (node.type === 'section' ? { ...node, children: without(node.children, dropped) } : node));
}

/**
 * Parses a web page (.html, .htm) without fetching anything: decoded by its byte-order mark or
 * declared charset (UTF-16 and legacy code pages included), `h1`-`h6` as the section tree, paragraphs,
 * lists and tables as their leaves, images from `data:` URIs or beside the page (never from the
 * network); scripts, styles and navigation boilerplate (`nav`, `header`, `footer`, `aside`, their ARIA
 * roles) dropped. Title: the page's `<title>`, else the file name.
 */
export async function parseHtml(input: ParseInput): Promise<ParsedDocument> {
  return parseHtmlText(decodeHtml(input.bytes, input.filename), input);
}

/**
 * Parses web page text already decoded (an e-mail's HTML body, whose charset its MIME part declared)
 * as `parseHtml` does; `input` gives the file name and where relative images are read from, `images`
 * the collector when the caller adds images of its own.
 */
export async function parseHtmlText(
  html: string,
  input: ParseInput,
  images: ImageCollector = createImageCollector(input),
): Promise<ParsedDocument> {
  const dom = parseDocument(html, { decodeEntities: true });
  const walk: Walk = { outline: createOutline(), images: [], inline: '' };
  const find = (nodes: AnyNode[], name: string): Element | undefined => {
    for (const node of nodes) {
      if (!isElement(node)) continue;
      if (node.name === name) return node;
      const found = find(node.children, name);
      if (found) return found;
    }
    return undefined;
  };
  const titleElement = find(dom.children, 'title');
  const title = titleElement ? clean(titleElement.children.map(textOf).join('')).replace(/\n/g, ' ') : '';
  const body = find(dom.children, 'body');
  for (const node of body ? body.children : dom.children) {
    input.signal?.throwIfAborted();
    walkNode(node, walk);
  }
  flush(walk);
  // Read in document order, so they are named img_001, img_002, ... as they appear.
  const unread = new Set<TreeNode>();
  for (const { node, src } of walk.images) {
    const image = await images.collect(src, node.alt);
    if (image) Object.assign(node, image);
    else unread.add(node);
  }
  return {
    title: title || titleFromFilename(input.filename),
    metadata: {},
    children: without(walk.outline.finish(), unread),
    images: images.images,
    warnings: images.warnings,
  };
}

/** The web page parser of the registry. */
export const htmlParser: Parser = { type: 'html', parse: parseHtml };
