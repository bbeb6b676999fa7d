import { describe, expect, it } from 'vitest';
import { fileNameTitle } from '#shared/enrich/topics/document-text.ts';
import { keyPhrases, topicKey } from '#shared/text/key-phrases.ts';
import { isMeasureWord } from '#shared/text/measure-words.ts';
import { isStopWord } from '#shared/text/stop-words.ts';
import { keywordTopics, overlaps, termOverlap, type WeightedText } from '#shared/text/topics.ts';

const DOC: WeightedText[] = [
  { text: 'Kubernetes migration plan', weight: 3 },
  { text: 'Cluster budget', weight: 2 },
  { text: 'The kubernetes cluster runs the billing service. Kubernetes upgrades happen monthly.', weight: 1 },
  { text: 'The budget for the cluster grows by ten percent. Billing stays flat.', weight: 1 },
];
const none = { corpusSize: 1, documentFrequency: () => 0 };

describe('keyPhrases', () => {
  it('takes English noun phrases, never verbs, adverbs, numbers or function words', () => {
    const keys = keyPhrases([
      {
        text: 'Adding to this, the notes beneath carry what was provided here, standing since 2022. The refund policies cover 30 days.',
        weight: 1,
      },
    ]).map((p) => p.key);
    expect(keys).toContain('refund policy');
    for (const bad of ['adding', 'beneath', 'here', 'provided', 'standing', '2022', '30', 'day'])
      expect(keys).not.toContain(bad);
  });

  it('takes Chinese nouns and compounds of two words, never fragments or numbers', () => {
    const keys = keyPhrases([
      { text: '下面一张表格说明数据平台的预算，2023年完成安全培训。', weight: 1 },
    ]).map((p) => p.key);
    expect(keys).toEqual(expect.arrayContaining(['数据平台', '安全培训', '表格']));
    for (const bad of ['下面', '一张', '2023', '年']) expect(keys).not.toContain(bad);
  });

  it('never takes a currency or a unit of measure, in either language (ICU names, not a list)', () => {
    const keys = keyPhrases([
      {
        text: 'The grant was 2.4 million euros (EUR), paid in US dollars and Swiss francs; 120 kilograms of cable, 40 terabytes of logs. 预算为三百万欧元，另付五万美元。',
        weight: 1,
      },
    ]).map((p) => p.key);
    expect(keys).toEqual(expect.arrayContaining(['grant', 'cable', 'log']));
    for (const unit of [
      'euro',
      'eur',
      'dollar',
      'us dollar',
      'franc',
      'kilogram',
      'terabyte',
      '欧元',
      '美元',
    ])
      expect(keys).not.toContain(unit);
    expect(isMeasureWord('Euros')).toBe(true);
    expect(isMeasureWord('人民币')).toBe(true);
    expect(isMeasureWord('budget')).toBe(false);
  });

  it('lets a hint (a file name) weigh the phrases the text uses, never make one', () => {
    const texts: WeightedText[] = [
      { text: 'refund policy final v2', weight: 3, hint: true },
      { text: 'The refund policy covers unused items.', weight: 1 },
    ];
    const phrases = keyPhrases(texts);
    expect(phrases.find((p) => p.key === 'refund policy')?.frequency).toBe(4);
    expect(phrases.find((p) => p.key === 'refund policy')?.count).toBe(1);
    expect(phrases.map((p) => p.key)).not.toContain('v2');
    expect(keyPhrases([{ text: 'report final', weight: 3, hint: true }])).toEqual([]);
  });

  it('normalises case, plurals and full width into one key, keeping the capitals of names', () => {
    const phrases = keyPhrases([
      {
        text: 'Project Borealis met. The data platforms grew; the data platform of ＢＯＲＥＡＬＩＳ too.',
        weight: 1,
      },
    ]);
    const platform = phrases.find((p) => p.key === 'data platform');
    expect(platform?.frequency).toBe(2);
    expect(phrases.find((p) => p.key === 'project borealis')?.name).toBe('Project Borealis');
    expect(topicKey('Refund  Policies')).toBe('refund policy');
    expect(topicKey('ＡＩ平台')).toBe('ai平台');
  });

  it('names a phrase as the documents write it: one plural rule never makes a word of its own', () => {
    const phrases = keyPhrases([{ text: 'The exceljs workbook reads the exceljs sheets.', weight: 1 }]);
    const names = phrases.map((p) => p.name);
    expect(names.some((n) => /\bexceljs\b/i.test(n))).toBe(true);
    expect(names.some((n) => /\bexcelj\b/i.test(n))).toBe(false);
  });
});

describe('keywordTopics', () => {
  it('ranks the phrases the document repeats, titles counting more', () => {
    const topics = keywordTopics(DOC, { ...none, max: 3 });
    expect(topics.map((t) => t.key)).toEqual(expect.arrayContaining(['kubernetes', 'cluster']));
    expect(topics[0]?.confidence).toBe(1);
  });

  it('leaves out the corpus’s common words and favours phrases other documents share', () => {
    const common = new Set(['cluster', 'budget']);
    const topics = keywordTopics(DOC, {
      max: 5,
      corpusSize: 10,
      documentFrequency: (tokens) =>
        tokens.every((t) => common.has(t)) ? 8 : tokens.includes('service') ? 2 : 0,
    });
    const keys = topics.map((t) => t.key);
    expect(keys).not.toContain('cluster');
    expect(keys).not.toContain('budget');
    expect(keys).toContain('service');
  });

  it('keeps the longer of two overlapping phrases when it is as much used ("refund policy" over "refund")', () => {
    const texts = [
      { text: 'The refund policy is new. Our refund policy covers a refund of unused items.', weight: 1 },
    ];
    const keys = keywordTopics(texts, { ...none, max: 5 }).map((t) => t.key);
    expect(keys).toContain('refund policy');
    expect(keys).not.toContain('refund');
    expect(keys).not.toContain('policy');
  });

  it('describes a topic with a sentence of the document that uses it', () => {
    const topic = keywordTopics(DOC, { ...none, max: 5 }).find((t) => t.key === 'kubernetes');
    expect(topic?.description).toBe('Kubernetes migration plan');
  });

  it('gives the same topics for the same input', () => {
    const options = { max: 5, corpusSize: 3, documentFrequency: () => 1 };
    expect(keywordTopics(DOC, options)).toEqual(keywordTopics(DOC, options));
  });

  it('never names a stop word of the multilingual lists', () => {
    const texts = [{ text: 'Here it is. 这里的一些东西。Something provided here.', weight: 3 }];
    for (const t of keywordTopics(texts, { ...none, max: 5 })) expect(isStopWord(t.name)).toBe(false);
  });
});

describe('topic name overlap', () => {
  it('finds one phrase inside another by whole words or characters', () => {
    expect(overlaps('data platform', 'platform')).toBe(true);
    expect(overlaps('data platform', 'form')).toBe(false);
    expect(overlaps('数据平台', '平台')).toBe(true);
  });

  it('merges a name with the longer name it ends, and scores shared words', () => {
    expect(termOverlap('Project Borealis', 'Borealis')).toBe(1);
    expect(termOverlap('Refund Policies', 'refund policy')).toBe(1);
    expect(termOverlap('policy', 'refund policy')).toBeLessThan(0.85);
    expect(termOverlap('data platform', 'data team')).toBeCloseTo(1 / 3);
  });
});

describe('fileNameTitle', () => {
  it('reads a file name written as an identifier as words, and leaves real titles alone', () => {
    expect(fileNameTitle('report-final-v2', 'uploads/report-final-v2.md')).toBe('report final v2');
    expect(fileNameTitle('refund_policyFinal', 'refund_policyFinal.docx')).toBe('refund policy Final');
    expect(fileNameTitle('Refund policy', 'Refund policy.md')).toBeUndefined();
    expect(fileNameTitle('数据平台上线计划', '数据平台上线计划.md')).toBeUndefined();
    expect(fileNameTitle('budget', 'budget.md')).toBeUndefined();
    expect(fileNameTitle('Refund Policy 2024', 'notes.md')).toBeUndefined();
  });
});
