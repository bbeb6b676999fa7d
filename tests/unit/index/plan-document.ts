import type { ParsedDocument } from '#shared/parse/types.ts';

/** Words of the deepest paragraph, used by tests that look for it. */
export const CONTAINER_PARAGRAPH =
  '预计投入 500 万预算用于容器化改造。采用 Kubernetes 对现有应用进行容器化改造。';

/**
 * A small Chinese and English document: an intro paragraph before any heading, sections nested three
 * deep, an image, a table and a code block.
 */
export function planDocument(): ParsedDocument {
  return {
    title: '2024年度技术规划',
    metadata: { author: '张三', tags: ['plan'] },
    images: [
      { name: 'arch.png', bytes: new Uint8Array([1, 2, 3]), mime: 'image/png', width: 640, height: 480 },
    ],
    warnings: [],
    children: [
      { type: 'paragraph', text: 'This plan covers infrastructure and budget for 2024.' },
      {
        type: 'section',
        title: '第3章 基础设施',
        children: [
          { type: 'paragraph', text: '本章介绍 IT 基础设施升级规划。内容包括云平台、网络和安全三个方面。' },
          {
            type: 'section',
            title: '3.2 云平台建设',
            children: [
              { type: 'paragraph', text: '计划将核心业务迁移至混合云架构。迁移可以提升弹性和成本效益。' },
              {
                type: 'section',
                title: '3.2.1 容器化改造',
                children: [
                  { type: 'paragraph', text: CONTAINER_PARAGRAPH },
                  { type: 'image', name: 'arch.png', alt: '容器平台架构图' },
                ],
              },
            ],
          },
          {
            type: 'table',
            text: '| 项目 | 预算 |\n| --- | --- |\n| 容器化 | 500 万 |',
            rows: [['项目', '预算']],
          },
        ],
      },
      {
        type: 'section',
        title: 'Budget',
        metadata: { level: 1 },
        children: [
          {
            type: 'paragraph',
            text: 'The budget grew by ten percent this year. Most of the budget pays for the cloud migration.',
          },
          {
            type: 'paragraph',
            text: 'const budget = load("budget.csv");',
            metadata: { kind: 'code', lang: 'ts' },
          },
        ],
      },
    ],
  };
}
