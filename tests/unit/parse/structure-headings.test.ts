import { describe, expect, it } from 'vitest';
import { normalizeTree } from '#shared/enrich/structure/normalize.ts';
import { headingLevel, inferHeadings } from '#shared/parse/structure/infer-headings.ts';
import { parseText } from '#shared/parse/text.ts';
import { countingEmbedder, doc, OPTIONS, outline, para } from './structure-fixtures.ts';

describe('headingLevel', () => {
  it.each([
    ['第一章 概述', 1],
    ['第2章 系统设计', 1],
    ['第三节 数据', 2],
    ['一、项目背景', 1],
    ['一、', 1],
    ['（二）预算安排', 2],
    ['1. Introduction', 1],
    ['2 Method', 1],
    ['2.1 Data sources', 2],
    ['3.2.1 容器化改造', 3],
    ['Chapter 4', 1],
  ])('gives "%s" level %i', (line, level) => {
    expect(headingLevel(line)).toBe(level);
  });

  it.each([
    '1. Buy milk and eggs.',
    '一、本项目旨在建设统一的数据平台，整合各业务系统的数据。',
    '2024 Budget overview',
    'Introduction',
    '1. First item\n2. Second item',
    `1. ${'word '.repeat(30)}`,
  ])('finds no heading in "%s"', (line) => {
    expect(headingLevel(line)).toBeUndefined();
  });
});

describe('inferHeadings', () => {
  it('nests sections by their numbering and keeps text before the first heading', () => {
    const out = inferHeadings([
      para('Preface text.'),
      para('1. Introduction'),
      para('Why we did it.'),
      para('1.1 Scope'),
      para('What is covered.'),
      para('2. Method'),
      para('How it works.'),
    ]);
    expect(outline(out)).toEqual([
      '- Preface text.',
      '# 1. Introduction',
      '  - Why we did it.',
      '  # 1.1 Scope',
      '    - What is covered.',
      '# 2. Method',
      '  - How it works.',
    ]);
    expect(out[1]?.metadata).toEqual({ inferred: true });
  });

  it('leaves a text with a single numbered line flat', () => {
    const nodes = [para('1. Introduction'), para('Just one heading-like line.')];
    expect(inferHeadings(nodes)).toEqual(nodes);
  });

  it('leaves numbered lines that follow each other (a list in paragraphs) as text', () => {
    const nodes = [para('Shopping'), para('1. Milk'), para('2. Eggs'), para('3. Bread')];
    expect(inferHeadings(nodes)).toEqual(nodes);
  });

  it('never takes a list item for a heading', () => {
    const nodes = [para('1. Milk', { kind: 'list' }), para('2. Eggs', { kind: 'list' })];
    expect(inferHeadings(nodes)).toEqual(nodes);
  });
});

describe('normalizeTree on a numbered plain text', () => {
  it('gives a plain-text file the outline its numbering shows, numbering-only titles enriched', async () => {
    const text = [
      '年度计划',
      '一、',
      '本项目旨在建设统一的数据平台，整合各业务系统的数据。',
      '二、项目团队',
      '（一）人员',
      '项目团队由张三负责，成员来自信息技术部。',
      '（二）培训',
      '团队成员需要接受云计算和数据治理培训。',
    ].join('\n\n');
    const parsed = await parseText({ bytes: new TextEncoder().encode(text), filename: 'plan.txt' });
    const out = await normalizeTree(parsed, { embedder: countingEmbedder() }, OPTIONS);
    expect(outline(out.children)).toEqual([
      '- 年度计划',
      '# 一、 本项目旨在建设统一的数据平台',
      '  - 本项目旨在建设统一的数据平台，整合各业务系统的数',
      '# 二、项目团队',
      '  # （一）人员',
      '    - 项目团队由张三负责，成员来自信息技术部。',
      '  # （二）培训',
      '    - 团队成员需要接受云计算和数据治理培训。',
    ]);
  });

  it('keeps a document that has sections as the parser gave them', async () => {
    const input = doc({ type: 'section', title: 'Intro', children: [para('1. Setup'), para('2. Results')] });
    const out = await normalizeTree(input, { embedder: countingEmbedder() }, OPTIONS);
    expect(out.children).toEqual(input.children);
  });
});
