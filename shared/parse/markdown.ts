import type { Heading, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmTable } from 'micromark-extension-gfm-table';
import { parse as parseYaml } from 'yaml';
import { reasonOf } from '#shared/errors.ts';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { decodeText } from './decode.ts';
import { createImageCollector } from './image-collector.ts';
import { type BlockContext, blockLeaves, imageLeavesWithin, plainText } from './markdown-blocks.ts';
import { titleFromFilename } from './title.ts';
import type { ParsedDocument, ParseInput, Parser, SectionNode, TreeNode } from './types.ts';

/**
 * CommonMark plus the GFM constructs that change the block structure (tables, footnotes). The inline
 * ones (autolink literals, strikethrough, task markers) are left out on purpose: text is sliced from
 * the source, so they would not change a single character, and autolink literals alone double the
 * parse time.
 */
const SYNTAX = {
  extensions: [gfmTable(), gfmFootnote(), frontmatter(['yaml'])],
  mdastExtensions: [gfmTableFromMarkdown(), gfmFootnoteFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
};

/** `SYNTAX` without tables, for a source that cannot hold one (`mayHoldTable`). */
const SYNTAX_WITHOUT_TABLES = {
  extensions: [gfmFootnote(), frontmatter(['yaml'])],
  mdastExtensions: [gfmFootnoteFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
};

/**
 * Whether a GFM table may start anywhere in the source: its delimiter row needs a pipe, or else an
 * alignment colon written right against its dashes (`:-`, `-:`; a row of dashes alone is a
 * setext underline or a thematic break). Without either the table syntax is left out of the parse:
 * it tries every paragraph's first line as a header row and gives up only at the line after it,
 * which took more than half the parse of a document of prose (50 paragraphs: 7.2 -> 3.1 ms of CPU)
 * for the same tree.
 */
export function mayHoldTable(source: string): boolean {
  return /\||:-|-:/.test(source);
}

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
  const title = collapseSpaces(plainText(heading));
  return { type: 'section', title, children: await imageLeavesWithin(heading, ctx) };
}

/** Passes that end tables at lazy rows at most (each pass can only reveal tables further down). */
const MAX_TABLE_PASSES = 8;

/**
 * The source parsed, with a blank line put before each table row written without a pipe. GFM reads
 * such a line as one more row, so text that follows a table with no blank line between — common in
 * Markdown converted from PDF and office files ("Estimate Totals" and the next table under an
 * estimate's form) — would join it as rows.
 */
function parseEndingTables(text: string): { source: string; tree: Root } {
  let source = text;
  for (let pass = 0; ; pass++) {
    const tree = fromMarkdown(source, mayHoldTable(source) ? SYNTAX : SYNTAX_WITHOUT_TABLES);
    const lazy = lazyRowStarts(tree, source);
    if (lazy.length === 0 || pass === MAX_TABLE_PASSES) return { source, tree };
    for (const at of lazy.reverse()) source = `${source.slice(0, at)}\n${source.slice(at)}`;
  }
}

/** Where each table's first row without a pipe starts in the source (one per table, in order). */
function lazyRowStarts(tree: Root, source: string): number[] {
  const starts: number[] = [];
  const visit = (node: Root | RootContent) => {
    if (node.type === 'table') {
      const lazy = node.children.find((row, i) => {
        const from = row.position?.start.offset;
        const to = row.position?.end.offset;
        return i > 0 && from !== undefined && to !== undefined && !source.slice(from, to).includes('|');
      });
      const at = lazy?.position?.start.offset;
      if (at !== undefined) starts.push(source.lastIndexOf('\n', at - 1) + 1);
      return;
    }
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(tree);
  return starts;
}

/**
 * Parses Markdown (CommonMark + GFM tables, YAML front matter) into the document tree: sections by
 * heading, paragraphs as written, code blocks and tables intact, images read beside the document.
 */
export async function parseMarkdown(input: ParseInput): Promise<ParsedDocument> {
  const { source, tree } = parseEndingTables(decodeText(input.bytes, input.filename).replace(/\r\n?/g, '\n'));
  const images = createImageCollector(input);
  const warnings = images.warnings;
  const metadata = frontMatterOf(tree, warnings);
  const children = await buildTree(tree, { source, definitions: definitionsOf(tree), images });
  return { title: titleOf(metadata, input.filename), metadata, children, images: images.images, warnings };
}

/** The Markdown parser of the registry. */
export const markdownParser: Parser = { type: 'md', parse: parseMarkdown };
