import type { Heading, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { parse as parseYaml } from 'yaml';
import { reasonOf } from '#shared/errors.ts';
import { decodeText } from './decode.ts';
import { createImageCollector } from './image-collector.ts';
import { type BlockContext, blockLeaves, imageLeavesWithin, plainText } from './markdown-blocks.ts';
import { titleFromFilename } from './title.ts';
import type { ParsedDocument, ParseInput, Parser, SectionNode, TreeNode } from './types.ts';

function frontMatterOf(tree: Root, warnings: string[]): Record<string, unknown> {
  const yaml = tree.children.find((node) => node.type === 'yaml');
  if (yaml?.type !== 'yaml' || yaml.value.trim() === '') return {};
  try {
    const value: unknown = parseYaml(yaml.value);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    warnings.push('front matter is not a mapping of keys to values; kept as frontMatter');
    return { frontMatter: value };
  } catch (error) {
    warnings.push(`front matter is not valid YAML and was ignored (${reasonOf(error)})`);
    return {};
  }
}

function definitionsOf(tree: Root): Map<string, string> {
  const definitions = new Map<string, string>();
  for (const node of tree.children) {
    if (node.type === 'definition' && !definitions.has(node.identifier.toLowerCase())) {
      definitions.set(node.identifier.toLowerCase(), node.url);
    }
  }
  return definitions;
}

function titleOf(metadata: Record<string, unknown>, filename: string): string {
  const title = metadata.title;
  if ((typeof title === 'string' && title.trim()) || typeof title === 'number') return String(title).trim();
  return titleFromFilename(filename);
}

/**
 * Builds sections from headings with a stack: a heading closes every open section of its level or
 * deeper and opens a child of the one left, so skipped levels (H1 > H3) still nest and content
 * before the first heading stays directly under the document.
 */
async function buildTree(tree: Root, ctx: BlockContext): Promise<TreeNode[]> {
  const root: TreeNode[] = [];
  const open: { depth: number; section: SectionNode }[] = [];
  for (const node of tree.children) {
    if (node.type === 'heading') {
      while ((open.at(-1)?.depth ?? 0) >= node.depth) open.pop();
      const section = await sectionOf(node, ctx);
      (open.at(-1)?.section.children ?? root).push(section);
      open.push({ depth: node.depth, section });
    } else {
      (open.at(-1)?.section.children ?? root).push(...(await blockLeaves(node, ctx)));
    }
  }
  return root;
}

async function sectionOf(heading: Heading, ctx: BlockContext): Promise<SectionNode> {
  const title = plainText(heading).replace(/\s+/g, ' ').trim();
  return { type: 'section', title, children: await imageLeavesWithin(heading, ctx) };
}

/**
 * Parses Markdown (CommonMark + GFM tables, YAML front matter) into the document tree: sections by
 * heading, paragraphs as written, code blocks and tables intact, images read beside the document.
 */
export async function parseMarkdown(input: ParseInput): Promise<ParsedDocument> {
  const source = decodeText(input.bytes, input.filename).replace(/\r\n?/g, '\n');
  const tree = fromMarkdown(source, {
    extensions: [gfm(), frontmatter(['yaml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
  });
  const images = createImageCollector(input);
  const warnings = images.warnings;
  const metadata = frontMatterOf(tree, warnings);
  const children = await buildTree(tree, { source, definitions: definitionsOf(tree), images });
  return { title: titleOf(metadata, input.filename), metadata, children, images: images.images, warnings };
}

/** The Markdown parser of the registry. */
export const markdownParser: Parser = { type: 'md', parse: parseMarkdown };
