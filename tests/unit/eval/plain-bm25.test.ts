import { describe, expect, it } from 'vitest';
import { chineseTokens, englishTokens, PlainBm25, plainAnalyzer } from '../../../bench/eval/plain-bm25.ts';

describe('the reference BM25 of the dev sets', () => {
  it('reads Chinese text as letters and digits, their unigrams and the bigrams of each run', () => {
    expect(chineseTokens('校长 TFS4的')).toEqual([
      '校',
      '长',
      '校长',
      't',
      'f',
      's',
      '4',
      '的',
      'tf',
      'fs',
      's4',
      '4的',
    ]);
  });

  it('reads English text as lower-cased words without stop words, lightly stemmed', () => {
    expect(englishTokens('The Studies of budgets')).toEqual(['study', 'budget']);
  });

  it('analyses a corpus by the language most of its entries are in', () => {
    const chinese = [{ id: 'a', title: '预算', text: '数据平台' }];
    expect(plainAnalyzer(chinese)).toBe(chineseTokens);
    expect(plainAnalyzer([{ id: 'b', title: 'Budget', text: 'the plan' }])).toBe(englishTokens);
  });

  it('ranks whole entries, title and text one field, by Okapi BM25 (k1 0.9, b 0.4)', () => {
    const index = new PlainBm25([
      { id: 'rare', title: '稀土', text: '出口配额' },
      { id: 'common', title: '经济', text: '经济发展提高水平' },
      { id: 'other', title: '教育', text: '提高教育水平' },
    ]);
    expect(index.rank('稀土配额', 3).map((hit) => hit.id)).toEqual(['rare']);
    expect(index.rank('经济水平', 3).map((hit) => hit.id)).toEqual(['common', 'other']);
  });
});
