import { describe, expect, it } from 'vitest';
import { containsQuote, extractQuotes, renumberCitations, verifyQuotes } from '#shared/qa/citations.ts';

describe('renumberCitations', () => {
  it('numbers markers in order of first use and drops those naming no passage', () => {
    expect(renumberCitations('A [3]. B [1][3]. C [9].', 3)).toEqual({
      text: 'A [1]. B [2][1]. C .',
      order: [3, 1],
    });
  });

  it('splits comma lists into separate markers', () => {
    expect(renumberCitations('X [2, 1]', 2).text).toBe('X [1][2]');
  });
});

describe('extractQuotes', () => {
  it('finds blockquote lines and quoted spans with their markers', () => {
    const quotes = extractQuotes('> 今年预算为500万元。 [1]\n他说“项目经理：张三。” [2][3] and "API" [1]');
    expect(quotes).toEqual([
      { text: '今年预算为500万元。', citations: [1] },
      { text: '项目经理：张三。', citations: [2, 3] },
    ]);
  });
});

describe('containsQuote', () => {
  it('ignores differences in white space and allows ellipses between parts in order', () => {
    expect(containsQuote('The budget  for 2024\nis 2 million dollars.', 'budget for 2024 is 2 million')).toBe(
      true,
    );
    expect(containsQuote('Alpha beta gamma delta.', 'Alpha … delta')).toBe(true);
    expect(containsQuote('Alpha beta gamma delta.', 'delta … Alpha')).toBe(false);
  });
});

describe('verifyQuotes', () => {
  const passages = new Map([
    [1, '今年预算为500万元，用于容器化改造。'],
    [2, 'B项目的项目经理：张三。'],
  ]);

  it('verifies a quote found in the passage it cites', () => {
    const { byCitation } = verifyQuotes('> 今年预算为500万元 [1]', passages);
    expect(byCitation.get(1)).toEqual([{ text: '今年预算为500万元', verified: true }]);
  });

  it('flags a quote that is not in the passage it cites', () => {
    const { byCitation } = verifyQuotes('“今年预算为800万元” [1]', passages);
    expect(byCitation.get(1)).toEqual([{ text: '今年预算为800万元', verified: false }]);
  });

  it('attaches an uncited quote to the passage containing it, or reports it unattributed', () => {
    const { byCitation, unattributed } = verifyQuotes('“项目经理：张三” and “没有这句话的原文”', passages);
    expect(byCitation.get(2)).toEqual([{ text: '项目经理：张三', verified: true }]);
    expect(unattributed).toEqual(['没有这句话的原文']);
  });
});
