import { describe, expect, it } from 'vitest';
import { extractiveAnswer, questionCoverage } from '#shared/text/answer.ts';

const contexts = [
  { content: '团队由张三负责。下设运维组和开发组。', citation: 1 },
  {
    content: '计划将核心业务迁移至混合云架构，预计投入500万预算用于容器化改造。第二期明年开始。',
    citation: 2,
  },
  {
    content:
      'The main goal of the project is to build a unified data platform. The budget for 2024 is 2 million dollars. Hiring starts in May.',
    citation: 3,
  },
];

/** The quoted lines of an answer: "> sentence [n]". */
function quotes(text: string): { sentence: string; citation: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('> '))
    .map((line) => {
      const m = /^> (.*) \[(\d+)\]$/.exec(line);
      if (!m) throw new Error(`not a quote line: ${line}`);
      return { sentence: m[1] ?? '', citation: Number(m[2]) };
    });
}

describe('extractiveAnswer', () => {
  it('quotes only sentences of the cited context, verbatim', () => {
    const answer = extractiveAnswer('What is the budget for 2024?', contexts);
    const quoted = quotes(answer.text);
    expect(quoted.length).toBeGreaterThan(0);
    for (const q of quoted) {
      const source = contexts.find((c) => c.citation === q.citation);
      expect(source?.content).toContain(q.sentence);
    }
    expect(quoted[0]).toEqual({ sentence: 'The budget for 2024 is 2 million dollars.', citation: 3 });
    expect(answer.usedCitations).toEqual([...new Set(quoted.map((q) => q.citation))]);
  });

  it('answers a Chinese question with a Chinese label and the matching sentence', () => {
    const answer = extractiveAnswer('云平台的预算是多少？', contexts);
    expect(answer.text.startsWith('离线抽取式回答')).toBe(true);
    expect(quotes(answer.text)[0]).toEqual({
      sentence: '计划将核心业务迁移至混合云架构，预计投入500万预算用于容器化改造。',
      citation: 2,
    });
    expect(answer.usedCitations[0]).toBe(2);
  });

  it('labels an English answer as offline and extractive', () => {
    expect(extractiveAnswer('Who leads the team? 张三', contexts).text).toMatch(/^离线抽取式回答/);
    expect(extractiveAnswer('What is the main goal?', contexts).text).toMatch(/^Offline extractive answer/);
  });

  it('says that no passage answers when nothing matches, without quoting', () => {
    const en = extractiveAnswer('What about quantum entanglement?', contexts);
    expect(en.text).toBe('Offline extractive answer: no passage in your documents answers this question.');
    expect(en.usedCitations).toEqual([]);
    expect(extractiveAnswer('量子纠缠是什么？', []).text).toContain('没有找到');
    expect(extractiveAnswer('what?', contexts).usedCitations).toEqual([]);
  });

  it('respects the sentence limit and is deterministic', () => {
    const one = extractiveAnswer('budget team 张三 预算 platform', contexts, { maxSentences: 1 });
    expect(quotes(one.text)).toHaveLength(1);
    expect(extractiveAnswer('budget team 张三 预算 platform', contexts)).toEqual(
      extractiveAnswer('budget team 张三 预算 platform', contexts),
    );
  });
});

describe('extractiveAnswer over sheet rows ("column: value" lines, rows parted by a blank line)', () => {
  const rows = [
    {
      content:
        'Part: Titanium bolt\nWarehouse: Rotterdam\nQuantity: 1450\n\nPart: Copper washer\nWarehouse: Hamburg\nQuantity: 310',
      citation: 1,
    },
  ];

  it('quotes the quantity of the matching row when the question asks how many', () => {
    const quoted = quotes(extractiveAnswer('How many titanium bolts are in Rotterdam?', rows).text);
    expect(quoted.map((q) => q.sentence)).toContain('Quantity: 1450');
    expect(quoted.map((q) => q.sentence)).not.toContain('Quantity: 310');
  });

  it('does the same for a Chinese question asking 多少', () => {
    const zh = [
      {
        content: '零件：钛螺栓\n仓库：鹿特丹\n数量：1450\n\n零件：铜垫圈\n仓库：汉堡\n数量：310',
        citation: 1,
      },
    ];
    const quoted = quotes(extractiveAnswer('鹿特丹仓库有多少钛螺栓？', zh).text).map((q) => q.sentence);
    expect(quoted).toContain('数量：1450');
    expect(quoted).not.toContain('数量：310');
  });

  it('leaves the quantity out when the question asks for something else', () => {
    const quoted = quotes(extractiveAnswer('Which warehouse holds the titanium bolts?', rows).text);
    expect(quoted.map((q) => q.sentence)).not.toContain('Quantity: 1450');
  });
});

describe('questionCoverage', () => {
  it('counts the share of content terms the quoted sentences contain, ignoring question words', () => {
    expect(questionCoverage('What is the 2024 budget?', ['The budget for 2024 is 2 million.'])).toBe(1);
    expect(questionCoverage('What is the 2024 budget?', ['Spending rose in 2024.'])).toBe(0.5);
    expect(
      questionCoverage('云平台建设的预算是多少？', ['预计投入500万预算用于容器化改造。']),
    ).toBeGreaterThan(0);
    expect(questionCoverage('云平台建设的预算是多少？', ['无关的句子。'])).toBe(0);
  });
});
