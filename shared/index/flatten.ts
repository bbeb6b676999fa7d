import { randomUUID } from 'node:crypto';
import type { ParsedDocument, TreeNode } from '#shared/parse/types.ts';
import type { NodeRow } from './node-row.ts';
import { buildTsvector } from './tsvector.ts';

export type { NodeRow } from './node-row.ts';

/** Separator of section titles in a section path ("第3章 > 3.2 云平台"). */
export const PATH_SEPARATOR = ' > ';

/**
 * Turns a parsed document into `nodes` rows: the document root, then every node in pre-order
 * (reading order), with parent links, depth, position among siblings and ordinal. Leaves are indexed
 * with their section path (weight A) and content (weight B); sections and the document by title
 * (A) until the summarize step adds their summary (C).
 *
 * @example
 * const rows = flattenTree(parsed, { documentId, version: 1 });
 * rows[0].nodeType // 'document'
 */
export function flattenTree(doc: ParsedDocument, ref: { documentId: string; version: number }): NodeRow[] {
  const imagesByName = new Map(doc.images.map((image) => [image.name, image]));
  const rows: NodeRow[] = [];
  const base = { documentId: ref.documentId, version: ref.version, summary: null, category: null };

  const rootId = randomUUID();
  const root = buildTsvector([{ text: doc.title, weight: 'A' }]);
  rows.push({
    ...base,
    id: rootId,
    parentId: null,
    nodeType: 'document',
    depth: 0,
    position: 0,
    ordinal: 0,
    title: doc.title,
    content: null,
    indexText: doc.title,
    searchVector: root.tsvector,
    tokenCount: root.tokenCount,
    metadata: doc.metadata,
  });

  const visit = (node: TreeNode, parentId: string, depth: number, position: number, path: string[]) => {
    const id = randomUUID();
    const common = { ...base, id, parentId, depth, position, ordinal: rows.length };
    if (node.type === 'section') {
      const indexed = buildTsvector([{ text: node.title, weight: 'A' }]);
      rows.push({
        ...common,
        nodeType: 'section',
        title: node.title,
        content: null,
        indexText: node.title,
        searchVector: indexed.tsvector,
        tokenCount: indexed.tokenCount,
        metadata: node.metadata ?? {},
      });
      const childPath = [...path, node.title];
      node.children.forEach((child, i) => {
        visit(child, id, depth + 1, i, childPath);
      });
      return;
    }
    const content = node.type === 'image' ? node.alt : node.text;
    const sectionPath = path.join(PATH_SEPARATOR);
    const indexed = buildTsvector([
      { text: sectionPath, weight: 'A' },
      { text: content, weight: 'B' },
    ]);
    let metadata = node.metadata ?? {};
    if (node.type === 'image') {
      const image = imagesByName.get(node.name);
      metadata = {
        ...metadata,
        name: node.name,
        mime: image?.mime,
        width: image?.width,
        height: image?.height,
      };
    }
    rows.push({
      ...common,
      nodeType: node.type,
      title: null,
      content,
      indexText: sectionPath ? `${sectionPath}\n${content}` : content,
      searchVector: indexed.tsvector,
      tokenCount: indexed.tokenCount,
      metadata,
    });
  };

  doc.children.forEach((child, i) => {
    visit(child, rootId, 1, i, []);
  });
  return rows;
}
