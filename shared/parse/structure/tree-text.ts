import type { SectionNode, TreeNode } from '../types.ts';

/** Paragraph kinds that are data or code, not prose: never cut into, never titled from. */
const NON_PROSE_KINDS = new Set(['code', 'rows', 'header']);
/** A leaf's text is embedded up to this length: enough to place it, bounded for huge tables. */
const MAX_UNIT_CHARS = 2_000;

type Leaf = Exclude<TreeNode, SectionNode>;

/** The paragraph's kind (`metadata.kind`), if any. */
export function kindOf(node: TreeNode): string | undefined {
  const kind = node.metadata?.kind;
  return typeof kind === 'string' ? kind : undefined;
}

/** True for a paragraph of prose (not code, spreadsheet rows or a header line). */
export function isProse(node: TreeNode): boolean {
  return node.type === 'paragraph' && !NON_PROSE_KINDS.has(kindOf(node) ?? '');
}

/** The text a leaf shows: paragraph and table text, an image's alt text. */
export function leafText(node: Leaf): string {
  return node.type === 'image' ? node.alt : node.text;
}

/** The text that stands for a leaf when its similarity to its neighbours is measured. */
export function unitText(node: Leaf): string {
  return leafText(node).slice(0, MAX_UNIT_CHARS);
}

/** Characters of text under the nodes, at any depth. */
export function textLength(nodes: readonly TreeNode[]): number {
  let total = 0;
  for (const node of nodes)
    total += node.type === 'section' ? textLength(node.children) : leafText(node).length;
  return total;
}

/** The prose paragraphs under the nodes, in reading order: what titles are drawn from. */
export function proseTexts(nodes: readonly TreeNode[]): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    if (node.type === 'section') out.push(...proseTexts(node.children));
    else if (isProse(node)) out.push(leafText(node));
  }
  return out;
}

/** True when any node is a section. */
export function hasSections(nodes: readonly TreeNode[]): boolean {
  return nodes.some((node) => node.type === 'section');
}

/**
 * True when a new piece may start at this leaf. Tables, images, code and captions belong to the
 * text before them, and a list runs on, so a piece never starts with one: runs stay whole.
 */
export function mayStartPiece(node: TreeNode, previous: TreeNode | undefined): boolean {
  if (node.type !== 'paragraph') return false;
  const kind = kindOf(node);
  if (kind === 'code' || kind === 'caption') return false;
  if (kind === 'list' && previous && kindOf(previous) === 'list') return false;
  return true;
}

export type { Leaf };
