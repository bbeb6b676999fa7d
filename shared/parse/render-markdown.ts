import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { withoutBlankLines } from './blank-lines.ts';
import { pipeTable } from './pipe-table.ts';
import type { ImageNode, ParagraphNode, ParsedDocument, TableNode, TreeNode } from './types.ts';

function fenceFor(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((run) => run[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function renderParagraph(node: ParagraphNode): string {
  const kind = node.metadata?.kind;
  if (kind === 'code') {
    const lang = typeof node.metadata?.lang === 'string' ? node.metadata.lang : '';
    const fence = fenceFor(node.text);
    return `${fence}${lang}\n${node.text.replace(/\n+$/, '')}\n${fence}`;
  }
  if (kind === 'quote') return withoutBlankLines(node.text).replace(/^/gm, '> ');
  return withoutBlankLines(node.text);
}

function renderTable(node: TableNode): string {
  if (node.text.trim() || !node.rows?.length) return withoutBlankLines(node.text);
  return pipeTable(node.rows);
}

function renderImage(node: ImageNode): string {
  const alt = node.alt.replace(/\s+/g, ' ').replace(/([\\[\]])/g, '\\$1');
  return `![${alt}](${node.name})`;
}

function renderNodes(nodes: readonly TreeNode[], depth: number, out: string[]): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'section':
        out.push(`${'#'.repeat(Math.min(depth, 6))} ${collapseSpaces(node.title)}`.trimEnd());
        renderNodes(node.children, depth + 1, out);
        break;
      case 'paragraph':
        out.push(renderParagraph(node));
        break;
      case 'table':
        out.push(renderTable(node));
        break;
      case 'image':
        out.push(renderImage(node));
        break;
    }
  }
}

/**
 * Renders a parsed document as Markdown, written beside its extracted images
 * (docs/spec.md#rendition): sections as `#` headings by depth (capped at six), each leaf one block
 * separated by a blank line, images as `![alt](img_001.png)` links to the extracted names.
 *
 * @example renderMarkdown(doc) // '# Intro\n\nHello.\n\n![chart](img_001.png)\n'
 */
export function renderMarkdown(doc: ParsedDocument): string {
  const out: string[] = [];
  renderNodes(doc.children, 1, out);
  const blocks = out.filter((block) => block !== '');
  return blocks.length ? `${blocks.join('\n\n')}\n` : '';
}
