import { describe, expect, it } from 'vitest';
import { cjkGrams, isCharacterGram, searchTerms, stemTerm, wordTerms } from '#shared/index/analyze.ts';
import { buildTsvector } from '#shared/index/tsvector.ts';

describe('searchTerms', () => {
  it('stems English words alike in any inflection, drops stop words and possessive s, splits hyphens', () => {
    expect(searchTerms("The patient's mutations were studied")).toEqual(['patient', 'mutat', 'studi']);
    expect(searchTerms('Studies of a mutated gene')).toEqual(['studi', 'mutat', 'gene']);
    expect(searchTerms('COVID-19 non-small-cell')).toEqual(['covid', '19', 'non', 'small', 'cell']);
  });

  it('leaves CJK words, numbers and short words as segment gives them, function words out', () => {
    expect(wordTerms('项目的核心目标 2024 ab')).toEqual(['项目', '核心', '目标', '2024', 'ab']);
    expect(stemTerm('数据平台')).toBe('数据平台');
  });

  it('adds the character unigrams and bigrams of CJK text as a second field, marked apart from the words', () => {
    const grams = ['#项', '#目', '#核', '#心', '#目', '#标', '#项目', '#核心', '#心目', '#目标'];
    expect(cjkGrams('项目的核心目标')).toEqual(grams);
    expect(searchTerms('项目的核心目标 2024 ab')).toEqual([...wordTerms('项目的核心目标 2024 ab'), ...grams]);
    expect(grams.every(isCharacterGram)).toBe(true);
    expect(wordTerms('项目的核心目标').some(isCharacterGram)).toBe(false);
    expect(cjkGrams('English only')).toEqual([]);
  });

  it('gives a name jieba splits differently in question and passage shared character grams', () => {
    expect(cjkGrams('数据平台')).toContain('#据平');
    expect(cjkGrams('跑跑卡丁车 and 泡泡堂')).toEqual(
      expect.arrayContaining(['#跑卡', '#卡丁', '#丁车', '#泡堂']),
    );
    expect(cjkGrams('English only, 字')).toEqual(['#字']);
  });

  it('is what the tsvector holds, so a query finds every inflection', () => {
    const { tsvector } = buildTsvector([{ text: 'Running runners ran', weight: 'B' }]);
    expect(tsvector).toBe("'run':1B 'runner':2B 'ran':3B");
    expect(searchTerms('runs')).toEqual(['run']);
  });

  it('counts the words and the character grams of the tsvector apart: each field has its own length', () => {
    const indexed = buildTsvector([
      { text: '预算', weight: 'A' },
      { text: 'budget 预算', weight: 'B' },
    ]);
    expect(indexed.tsvector).toBe("'预算':1A,6B '#预':2A,7B '#算':3A,8B '#预算':4A,9B 'budget':5B");
    expect(indexed).toMatchObject({ tokenCount: 3, gramCount: 6 });
    expect(buildTsvector([{ text: 'budget grew', weight: 'B' }])).toMatchObject({
      tokenCount: 2,
      gramCount: 0,
    });
  });
});
