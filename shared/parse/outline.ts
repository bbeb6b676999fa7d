import type { SectionNode, TreeNode } from './types.ts';

/** Builds a section tree from headings and leaves met in reading order. */
export interface OutlineBuilder {
  /** Opens a section at `level` (1 = top), closing open ones at that level or deeper. */
  heading(level: number, title: string, metadata?: Record<string, unknown>): void;
  /** Adds a leaf (paragraph, table, image) to the innermost open section, or the top. */
  leaf(node: TreeNode): void;
  finish(): TreeNode[];
}

/**
 * The heading stack every format without its own tree uses (.doc, web pages): a heading closes every
 * open section of its level or deeper and opens a child of the one left, so skipped levels (H1 > H3)
 * still nest and content before the first heading stays directly under the document.
 *
 * @example const o = createOutline(); o.heading(1, 'Intro'); o.leaf({ type: 'paragraph', text: 'Hi' }); o.finish()
 */
export function createOutline(): OutlineBuilder {
  const root: TreeNode[] = [];
  const open: { level: number; section: SectionNode }[] = [];
  return {
    heading(level, title, metadata) {
      while ((open.at(-1)?.level ?? 0) >= level) open.pop();
      const section: SectionNode = {
        type: 'section',
        title,
        children: [],
        ...(metadata ? { metadata } : {}),
      };
      (open.at(-1)?.section.children ?? root).push(section);
      open.push({ level, section });
    },
    leaf(node) {
      (open.at(-1)?.section.children ?? root).push(node);
    },
    finish: () => root,
  };
}
