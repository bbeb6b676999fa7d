import { pipeTable } from '../pipe-table.ts';
import type { SectionNode, TreeNode } from '../types.ts';
import type { PdfItem } from './layout.ts';

/**
 * Nests the items into sections: a heading opens a section under the nearest open section of a
 * lower level; paragraphs, tables (rows padded to the widest, a pipe-table text) and images go into
 * the innermost open section. Leaves carry
 * `{ page }`, sections `{ pageStart }`.
 */
export function buildPdfTree(items: readonly PdfItem[]): TreeNode[] {
  const root: TreeNode[] = [];
  const open: { level: number; section: SectionNode }[] = [];
  const target = () => open.at(-1)?.section.children ?? root;
  for (const item of items) {
    if (item.type === 'heading') {
      while ((open.at(-1)?.level ?? 0) >= item.level) open.pop();
      const section: SectionNode = {
        type: 'section',
        title: item.title,
        children: [],
        metadata: { pageStart: item.page },
      };
      target().push(section);
      open.push({ level: item.level, section });
    } else if (item.type === 'table') {
      const width = Math.max(...item.rows.map((row) => row.length));
      const rows = item.rows.map((row) => [...row, ...Array<string>(width - row.length).fill('')]);
      target().push({ type: 'table', text: pipeTable(rows), rows, metadata: { page: item.page } });
    } else if (item.type === 'image') {
      target().push({ type: 'image', name: item.name, alt: '', metadata: { page: item.page } });
    } else {
      const metadata = item.title ? { kind: 'title', page: item.page } : { page: item.page };
      target().push({ type: 'paragraph', text: item.text, metadata });
    }
  }
  return root;
}
