import { isMeaninglessTitle } from '#shared/parse/structure/meaningless-title.ts';
import type { Titler } from '#shared/parse/structure/titler.ts';
import { proseTexts } from '#shared/parse/structure/tree-text.ts';
import type { SectionNode, TreeNode } from '#shared/parse/types.ts';

/**
 * Adds a descriptive suffix to numbering-only section titles (docs/spec.md#title-enrichment): "一、"
 * becomes "一、 项目背景", numbering kept, the original in `metadata.originalTitle`. The suffix is
 * the titler's (a model title, or offline an extractive one from the section's text). Sections with
 * no prose keep their title.
 */
export async function enrichTitles(nodes: readonly TreeNode[], titler: Titler): Promise<TreeNode[]> {
  const targets: SectionNode[] = [];
  const collect = (list: readonly TreeNode[]) => {
    for (const node of list) {
      if (node.type !== 'section') continue;
      if (isMeaninglessTitle(node.title) && proseTexts(node.children).length > 0) targets.push(node);
      collect(node.children);
    }
  };
  collect(nodes);
  if (targets.length === 0) return [...nodes];
  const suffixes = await titler.titles(
    targets.map((node) => ({ texts: proseTexts(node.children), numbering: node.title.trim() })),
  );
  const enriched = new Map(targets.map((node, i) => [node, suffixes[i]?.trim() ?? '']));
  const rebuild = (list: readonly TreeNode[]): TreeNode[] =>
    list.map((node) => {
      if (node.type !== 'section') return node;
      const suffix = enriched.get(node);
      const children = rebuild(node.children);
      if (!suffix) return { ...node, children };
      return {
        ...node,
        title: `${node.title.trim()} ${suffix}`,
        children,
        metadata: { ...node.metadata, originalTitle: node.title },
      };
    });
  return rebuild(nodes);
}
