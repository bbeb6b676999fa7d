import { describe, expect, it } from 'vitest';
import { flattenTree, type NodeRow } from '#shared/index/flatten.ts';
import { CONTAINER_PARAGRAPH, planDocument } from './plan-document.ts';

const ref = { documentId: '00000000-0000-4000-8000-000000000001', version: 3 };

function byContent(rows: NodeRow[], text: string): NodeRow {
  const row = rows.find((r) => r.title === text || r.content === text);
  if (!row) throw new Error(`no row for ${text}`);
  return row;
}

describe('flattenTree', () => {
  it('starts with the document root carrying the title and metadata', () => {
    const [root] = flattenTree(planDocument(), ref);
    expect(root).toMatchObject({
      nodeType: 'document',
      depth: 0,
      ordinal: 0,
      position: 0,
      parentId: null,
      title: '2024年度技术规划',
      metadata: { author: '张三', tags: ['plan'] },
      documentId: ref.documentId,
      version: 3,
      category: null,
      summary: null,
    });
  });

  it('lists nodes in reading order with consecutive ordinals', () => {
    const rows = flattenTree(planDocument(), ref);
    expect(rows.map((r) => r.ordinal)).toEqual(rows.map((_, i) => i));
    expect(rows.map((r) => r.title ?? r.content?.slice(0, 8))).toEqual([
      '2024年度技术规划',
      'This pla',
      '第3章 基础设施',
      '本章介绍 IT ',
      '3.2 云平台建设',
      '计划将核心业务迁',
      '3.2.1 容器化改造',
      CONTAINER_PARAGRAPH.slice(0, 8),
      '容器平台架构图',
      '| 项目 | 预',
      'Budget',
      'The budg',
      'const bu',
    ]);
  });

  it('sets depth, position among siblings and parent links', () => {
    const rows = flattenTree(planDocument(), ref);
    const root = rows[0];
    const chapter = byContent(rows, '第3章 基础设施');
    const cloud = byContent(rows, '3.2 云平台建设');
    const container = byContent(rows, '3.2.1 容器化改造');
    const table = rows.find((r) => r.nodeType === 'table');
    const image = rows.find((r) => r.nodeType === 'image');
    expect([chapter.depth, cloud.depth, container.depth, image?.depth]).toEqual([1, 2, 3, 4]);
    expect(chapter.parentId).toBe(root?.id);
    expect(cloud.parentId).toBe(chapter.id);
    expect(image?.parentId).toBe(container.id);
    expect(table?.parentId).toBe(chapter.id);
    // Chapter 3 is the second child of the document; its table comes after paragraph and sub-section.
    expect([chapter.position, cloud.position, table?.position, image?.position]).toEqual([1, 1, 2, 1]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it('indexes a leaf as its document title, section path and content', () => {
    const rows = flattenTree(planDocument(), ref);
    const leaf = byContent(rows, CONTAINER_PARAGRAPH);
    expect(leaf.indexText).toBe(
      `2024年度技术规划 > 第3章 基础设施 > 3.2 云平台建设 > 3.2.1 容器化改造\n${CONTAINER_PARAGRAPH}`,
    );
    expect(leaf.searchVector).toMatch(/'基础设施':\d+A/);
    expect(leaf.searchVector).toMatch(/'规划':\d+A/);
    expect(leaf.searchVector).toMatch(/'kubernet':\d+B/);
    expect(leaf.tokenCount).toBeGreaterThan(10);
  });

  it('indexes a paragraph outside any section by the document title and its content', () => {
    const rows = flattenTree(planDocument(), ref);
    const intro = rows[1];
    expect(intro?.indexText).toBe('2024年度技术规划\nThis plan covers infrastructure and budget for 2024.');
    expect(intro?.searchVector).toMatch(/'规划':\d+A/);
    expect(intro?.searchVector).toMatch(/'infrastructur':\d+B/);
  });

  it('indexes a leaf by its content alone when the document has no title', () => {
    const rows = flattenTree(
      {
        title: '',
        metadata: {},
        children: [{ type: 'paragraph', text: 'Alone.' }],
        images: [],
        warnings: [],
      },
      ref,
    );
    expect(rows[1]?.indexText).toBe('Alone.');
  });

  it('indexes sections and the document by title with weight A', () => {
    const rows = flattenTree(planDocument(), ref);
    const budget = byContent(rows, 'Budget');
    expect(budget).toMatchObject({
      nodeType: 'section',
      content: null,
      indexText: 'Budget',
      metadata: { level: 1 },
    });
    expect(budget.searchVector).toBe("'budget':1A");
    expect(rows[0]?.searchVector).toMatch(/'2024':1A/);
  });

  it('gives an image node its alt text and image metadata', () => {
    const image = flattenTree(planDocument(), ref).find((r) => r.nodeType === 'image');
    expect(image).toMatchObject({
      content: '容器平台架构图',
      metadata: { name: 'arch.png', mime: 'image/png', width: 640, height: 480 },
    });
    expect(image?.indexText).toBe(
      '2024年度技术规划 > 第3章 基础设施 > 3.2 云平台建设 > 3.2.1 容器化改造\n容器平台架构图',
    );
  });

  it('keeps paragraph metadata such as code blocks', () => {
    const rows = flattenTree(planDocument(), ref);
    const code = rows.at(-1);
    expect(code).toMatchObject({ nodeType: 'paragraph', metadata: { kind: 'code', lang: 'ts' } });
  });

  it('returns only the root for a document without content', () => {
    const rows = flattenTree({ title: 'empty', metadata: {}, children: [], images: [], warnings: [] }, ref);
    expect(rows).toHaveLength(1);
  });
});
