import type { Image, ImageReference, Nodes, Paragraph, PhrasingContent, RootContent, Table } from 'mdast';
import { withoutBlankLines } from './blank-lines.ts';
import type { ImageCollector } from './image-collector.ts';
import type { ImageNode, ParagraphNode, TableNode, TreeNode } from './types.ts';

/** What block conversion needs besides the node: the source (text is sliced from it) and the images. */
export interface BlockContext {
  source: string;
  /** Link reference definitions by normalized identifier, for `![alt][ref]`. */
  definitions: Map<string, string>;
  images: ImageCollector;
}

type AnyImage = Image | ImageReference;

function start(node: Nodes): number {
  return node.position?.start.offset ?? 0;
}

function end(node: Nodes): number {
  return node.position?.end.offset ?? 0;
}

/** The node exactly as written, so inline Markdown (`code`, **bold**, links) stays readable. */
export function sliceOf(source: string, node: Nodes): string {
  return source.slice(start(node), end(node));
}

/** Plain text of inline content, for titles: markup dropped, code and image alt text kept. */
export function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  if (node.type === 'break') return ' ';
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

function referenceOf(image: AnyImage, ctx: BlockContext): string | undefined {
  if (image.type === 'image') return image.url;
  return ctx.definitions.get(image.identifier.toLowerCase());
}

/** The image a phrasing node stands for: an image, or a link wrapping nothing but an image. */
function imageIn(node: PhrasingContent): AnyImage | undefined {
  if (node.type === 'image' || node.type === 'imageReference') return node;
  if (node.type === 'link' || node.type === 'linkReference') {
    const visible = node.children.filter((child) => !(child.type === 'text' && child.value.trim() === ''));
    const only = visible[0];
    if (visible.length === 1 && only && (only.type === 'image' || only.type === 'imageReference'))
      return only;
  }
  return undefined;
}

async function collect(image: AnyImage, ctx: BlockContext): Promise<ImageNode | undefined> {
  const reference = referenceOf(image, ctx);
  if (reference === undefined) {
    ctx.images.warnings.push(
      `image reference [${image.type === 'imageReference' ? image.identifier : ''}] has no definition`,
    );
    return undefined;
  }
  return ctx.images.collect(reference, image.alt ?? '');
}

function paragraph(text: string, metadata?: Record<string, unknown>): ParagraphNode {
  const node: ParagraphNode = { type: 'paragraph', text };
  if (metadata) node.metadata = metadata;
  return node;
}

/**
 * A paragraph as written, split around the images it holds so that each image node sits at its place
 * in reading order. An image that cannot be used leaves its alt text in the paragraph instead.
 */
async function paragraphLeaves(node: Paragraph, ctx: BlockContext): Promise<TreeNode[]> {
  const out: TreeNode[] = [];
  let run = '';
  let cursor = start(node);
  const flush = () => {
    if (run.trim()) out.push(paragraph(run.trim()));
    run = '';
  };
  for (const child of node.children) {
    const image = imageIn(child);
    if (!image) {
      run += ctx.source.slice(cursor, end(child));
    } else {
      run += ctx.source.slice(cursor, start(child));
      const imageNode = await collect(image, ctx);
      if (imageNode) {
        flush();
        out.push(imageNode);
      } else {
        run += image.alt ?? '';
      }
    }
    cursor = end(child);
  }
  flush();
  return out;
}

function imagesWithin(node: Nodes): AnyImage[] {
  if (node.type === 'image' || node.type === 'imageReference') return [node];
  if ('children' in node) return (node.children as Nodes[]).flatMap(imagesWithin);
  return [];
}

/** Images inside a block kept whole (list, quote, table, heading), as image nodes that follow it. */
export async function imageLeavesWithin(node: Nodes, ctx: BlockContext): Promise<ImageNode[]> {
  const out: ImageNode[] = [];
  for (const image of imagesWithin(node)) {
    const imageNode = await collect(image, ctx);
    if (imageNode) out.push(imageNode);
  }
  return out;
}

/** One level of `>` markers removed; blank quote lines dropped so the quote stays one block. */
function unquote(text: string): string {
  return withoutBlankLines(text.replace(/^[ \t]{0,3}>[ \t]?/gm, ''));
}

function cellText(ctx: BlockContext, cell: Table['children'][number]['children'][number]): string {
  const first = cell.children[0];
  const last = cell.children.at(-1);
  if (!first || !last) return '';
  return ctx.source.slice(start(first), end(last)).trim();
}

function table(node: Table, ctx: BlockContext): TableNode {
  const rows = node.children.map((row) => row.children.map((cell) => cellText(ctx, cell)));
  return { type: 'table', text: sliceOf(ctx.source, node).trim(), rows };
}

/**
 * Converts one block (anything but a heading) into the leaves it contributes, in reading order: code
 * blocks and tables whole, a list or a quote as one paragraph, HTML as text (never interpreted).
 */
export async function blockLeaves(node: RootContent, ctx: BlockContext): Promise<TreeNode[]> {
  switch (node.type) {
    case 'paragraph':
      return paragraphLeaves(node, ctx);
    case 'code':
      return [paragraph(node.value, { kind: 'code', lang: node.lang ?? null })];
    case 'table':
      return [table(node, ctx), ...(await imageLeavesWithin(node, ctx))];
    case 'list': {
      const text = withoutBlankLines(sliceOf(ctx.source, node));
      const list = paragraph(text, { kind: 'list', ordered: node.ordered === true });
      return [list, ...(await imageLeavesWithin(node, ctx))];
    }
    case 'blockquote':
      return [
        paragraph(unquote(sliceOf(ctx.source, node)), { kind: 'quote' }),
        ...(await imageLeavesWithin(node, ctx)),
      ];
    case 'html':
      return [paragraph(node.value, { kind: 'html' })];
    case 'footnoteDefinition':
      return [paragraph(withoutBlankLines(sliceOf(ctx.source, node)), { kind: 'footnote' })];
    case 'thematicBreak':
    case 'definition':
    case 'yaml':
      return [];
    default:
      return [paragraph(sliceOf(ctx.source, node).trim())];
  }
}
