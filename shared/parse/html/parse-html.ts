import { createImageCollector, type ImageCollector } from '../image-collector.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser, TreeNode } from '../types.ts';
import { decodeHtml } from './charset.ts';
import { walkPage } from './page-walker.ts';

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
  const page = walkPage(html, input.signal);
  // Read in document order, so they are named img_001, img_002, ... as they appear.
  const unread = new Set<TreeNode>();
  for (const { node, src } of page.images) {
    const image = await images.collect(src, node.alt);
    if (image) Object.assign(node, image);
    else unread.add(node);
  }
  return {
    title: page.title || titleFromFilename(input.filename),
    metadata: {},
    children: without(page.children, unread),
    images: images.images,
    warnings: images.warnings,
  };
}

/** The web page parser of the registry. */
export const htmlParser: Parser = { type: 'html', parse: parseHtml };
