import { describe, expect, it } from 'vitest';
import { normalizeTree } from '#shared/enrich/structure/normalize.ts';
import { extractiveTitle, shortenToTitle } from '#shared/parse/structure/extractive-title.ts';
import { keyTermTitle } from '#shared/parse/structure/key-terms.ts';
import { isMeaninglessTitle } from '#shared/parse/structure/meaningless-title.ts';
import type { SectionNode } from '#shared/parse/types.ts';
import {
  BUDGET_ZH,
  countingEmbedder,
  DATABASE,
  doc,
  fakeChat,
  GARDEN,
  OPTIONS,
  para,
  section,
  TEAM_ZH,
  TRAVEL,
} from './structure-fixtures.ts';

const providers = () => ({ embedder: countingEmbedder() });
const titles = (nodes: readonly unknown[]) => (nodes as SectionNode[]).map((node) => node.title);

describe('isMeaninglessTitle', () => {
  it.each([
    '一、',
    '三',
    '1.',
    '2、',
    '第二章',
    '第3节',
    '第一部分',
    'A.',
    '3.2',
    '（一）',
    'II.',
    'Chapter 2',
    'Part II',
    'Section 4',
  ])('is true for "%s"', (title) => {
    expect(isMeaninglessTitle(title)).toBe(true);
  });

  it.each(['一、项目背景', '第二章 系统设计', '1. Introduction', 'Chapter 2: Methods', 'Budget', '', 'A'])(
    'is false for "%s"',
    (title) => {
      expect(isMeaninglessTitle(title)).toBe(false);
    },
  );
});

describe('extractive titles', () => {
  it('shortens Chinese to the first clause, at most 20 characters, at a word boundary', () => {
    expect(shortenToTitle('本项目旨在建设统一的数据平台，整合各业务系统的数据。')).toBe(
      '本项目旨在建设统一的数据平台',
    );
    expect(shortenToTitle('数据平台将汇集销售库存财务人力资源和客户服务系统的全部数据。')).toBe(
      '数据平台将汇集销售库存财务人力资源和客户',
    );
  });

  it('shortens English to the first clause or eight words, without a trailing function word', () => {
    expect(shortenToTitle('Kubernetes runs every service, and costs fell.')).toBe(
      'Kubernetes runs every service',
    );
    expect(shortenToTitle('The database stores every invoice in a Postgres table.')).toBe(
      'The database stores every invoice in a Postgres',
    );
    expect(shortenToTitle('We moved all of the old services to the new cloud platform.')).toBe(
      'We moved all of the old services',
    );
  });

  it('never leaves a bracket open', () => {
    expect(shortenToTitle('对于没有标题的纯文本文档（如长文章、聊天记录），自动构建层级结构。')).toBe(
      '对于没有标题的纯文本文档',
    );
    expect(shortenToTitle('Plain text (long articles, chat logs and server logs) gets structure.')).toBe(
      'Plain text',
    );
  });

  it('draws titles from prose, not from code, links or drawings', () => {
    const texts = [
      '│ ├── Section ├── Paragraph',
      'See [the guide](http://x.y/guide) now.',
      'Backups run every night at two.',
    ];
    expect(extractiveTitle(texts)).toBe('Backups run every night at two');
  });

  it('picks the most representative sentence of the text', () => {
    expect(extractiveTitle([GARDEN.join(' ')])).toBe(
      'Compost feeds the garden soil before planting tomatoes',
    );
    expect(extractiveTitle([])).toBe('');
  });

  it('names a group by its most frequent words', () => {
    expect(keyTermTitle([GARDEN.join(' '), DATABASE.join(' ')])).toBe('garden / database / tomatoes');
    expect(keyTermTitle(TEAM_ZH)).toBe('团队、项目、成员');
  });
});

describe('normalizeTree title enrichment', () => {
  it('adds a suffix from the content to numbering-only titles, numbering kept', async () => {
    const input = doc(
      section('一、', para(BUDGET_ZH.join(''))),
      section('二、', para(TEAM_ZH.join(''))),
      section('Chapter 2', para(DATABASE.join(' '))),
      section('3. Travel', para(TRAVEL.join(' '))),
      section('四、'),
    );
    const out = await normalizeTree(input, providers(), OPTIONS);
    expect(titles(out.children)).toEqual([
      '一、 本项目旨在建设统一的数据平台',
      '二、 项目团队由张三负责',
      'Chapter 2 The database stores every invoice',
      '3. Travel',
      '四、',
    ]);
    expect((out.children[0] as SectionNode).metadata).toEqual({ originalTitle: '一、' });
  });

  it('keeps numbering-only titles when enrichTitles is off', async () => {
    const input = doc(section('一、', para(BUDGET_ZH.join(''))));
    const out = await normalizeTree(input, providers(), { ...OPTIONS, enrichTitles: false });
    expect(titles(out.children)).toEqual(['一、']);
  });
});

describe('normalizeTree with a chat model', () => {
  it('asks the model for generated section titles and title suffixes', async () => {
    // The model repeats the numbering and ends with a full stop: both are dropped.
    const chat = fakeChat((prompt) =>
      prompt.includes('numbered it') ? '一、数据平台。' : `Model title ${prompt.length % 7}`,
    );
    const input = doc(
      section('一、', para(BUDGET_ZH.join(''))),
      section('Long', para(GARDEN.join(' ')), para(DATABASE.join(' ')), para(TRAVEL.join(' '))),
    );
    const out = await normalizeTree(input, { embedder: countingEmbedder(), chat }, OPTIONS);
    const [first, long] = out.children as SectionNode[];
    expect(first?.title).toBe('一、 数据平台');
    expect(
      long?.children.every((child) => child.type === 'section' && child.title.startsWith('Model title')),
    ).toBe(true);
    expect(chat.prompts).toHaveLength(1 + (long?.children.length ?? 0));
    // Document text travels as data inside its delimiters.
    expect(chat.prompts[0]).toMatch(
      /<document_content>\n[\s\S]*Tomatoes need full sun[\s\S]*<\/document_content>/,
    );
  });

  it('falls back to extractive titles with one warning when the model fails', async () => {
    const chat = fakeChat(() => '', true);
    const input = doc(section('一、', para(BUDGET_ZH.join(''))), section('二、', para(TEAM_ZH.join(''))));
    const out = await normalizeTree(input, { embedder: countingEmbedder(), chat }, OPTIONS);
    expect(titles(out.children)).toEqual(['一、 本项目旨在建设统一的数据平台', '二、 项目团队由张三负责']);
    expect(out.warnings).toEqual([
      'section titles from the model failed, extractive ones used: model unavailable',
    ]);
  });
});
