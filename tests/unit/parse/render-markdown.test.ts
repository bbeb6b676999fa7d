import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '#shared/parse/markdown.ts';
import { renderMarkdown } from '#shared/parse/render-markdown.ts';
import type { ParsedDocument, TreeNode } from '#shared/parse/types.ts';
import { markdownInput, pngBytes } from './fixtures.ts';

function doc(children: TreeNode[]): ParsedDocument {
  return { title: 't', metadata: {}, children, images: [], warnings: [] };
}

/** Structure without texts' exact wording: what a round trip must keep. */
function shape(nodes: TreeNode[]): unknown[] {
  return nodes.map((node) => {
    if (node.type === 'section') return { [node.title]: shape(node.children) };
    if (node.type === 'image') return `image:${node.name}:${node.alt}`;
    if (node.type === 'table') return `table:${JSON.stringify(node.rows)}`;
    return `${node.type}:${String(node.metadata?.kind ?? 'text')}:${node.text}`;
  });
}

describe('renderMarkdown', () => {
  it('writes headings by depth, blocks separated by blank lines, images by extracted name', () => {
    const out = renderMarkdown(
      doc([
        { type: 'paragraph', text: 'Intro.' },
        {
          type: 'section',
          title: '第1章 概述',
          children: [
            { type: 'paragraph', text: 'Text.' },
            {
              type: 'section',
              title: '1.1 背景',
              children: [{ type: 'image', name: 'img_001.png', alt: 'a [b]' }],
            },
          ],
        },
      ]),
    );
    expect(out).toBe('Intro.\n\n# 第1章 概述\n\nText.\n\n## 1.1 背景\n\n![a \\[b\\]](img_001.png)\n');
  });

  it('fences code longer than any backtick run inside it and keeps its language', () => {
    const out = renderMarkdown(
      doc([{ type: 'paragraph', text: 'a ```b```\n\nc', metadata: { kind: 'code', lang: 'md' } }]),
    );
    expect(out).toBe('````md\na ```b```\n\nc\n````\n');
  });

  it('builds a pipe table from rows when a table has no text', () => {
    const out = renderMarkdown(
      doc([
        {
          type: 'table',
          text: '',
          rows: [
            ['h1', 'h2'],
            ['a|b', 'c'],
          ],
        },
      ]),
    );
    expect(out).toBe('| h1 | h2 |\n| --- | --- |\n| a\\|b | c |\n');
  });

  it('keeps each paragraph one block even when its text has blank lines', () => {
    expect(renderMarkdown(doc([{ type: 'paragraph', text: 'a\n\n\nb' }]))).toBe('a\nb\n');
  });

  it('caps headings at level six', () => {
    let node: TreeNode = { type: 'paragraph', text: 'x' };
    for (let level = 8; level >= 1; level--) node = { type: 'section', title: `L${level}`, children: [node] };
    expect(renderMarkdown(doc([node]))).toContain('###### L7\n\n###### L8\n\nx');
  });

  it('round-trips a parsed document to the same shape', async () => {
    const source = [
      'Lead paragraph with `code`.',
      '# 第1章',
      '## 1.1 背景',
      '当前行业**快速**发展。',
      '![图](a.png)',
      '```sql\nselect 1;\n\nselect 2;\n```',
      '| k | v |\n|---|---|\n| 1 | 2 |',
      '> quoted\n> twice',
      '- a\n- b',
      '#### Deep',
      'Deep text.',
      '# 第2章',
      'Done.',
    ].join('\n\n');
    const files = { 'a.png': pngBytes(2, 2) };
    const first = await parseMarkdown(markdownInput(source, files));
    const rendered = renderMarkdown(first);
    const second = await parseMarkdown(markdownInput(rendered, { 'img_001.png': pngBytes(2, 2) }));
    expect(shape(second.children)).toEqual(shape(first.children));
    expect(second.warnings).toEqual([]);
  });
});
