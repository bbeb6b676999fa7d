import { describe, expect, it } from 'vitest';
import { queryTerms, usesFeedback } from '#shared/search/fulltext.ts';
import { searchableQuery } from '#shared/search/query-text.ts';

const terms = (query: string) => queryTerms(query).map((t) => t.term);

describe('searchableQuery', () => {
  it('leaves out the words that ask for the answer, in Chinese and English', () => {
    expect(terms('中国人民大学的校长是谁？')).not.toContain('谁');
    expect(terms('外语类保送生网上报名的时间到几月几号？')).not.toEqual(
      expect.arrayContaining(['几月', '几号', '月几']),
    );
    expect(terms('Who led Project Borealis?')).toEqual(['led', 'project', 'boreali']);
  });

  it('keeps a name that holds such a character, and words saying what kind of answer is wanted', () => {
    expect(searchableQuery('哪吒是什么')).toContain('哪吒');
    expect(terms('如何申请转专业')).toContain('如何');
    expect(terms('how does it work')).toContain('work');
  });

  it('searches a question of asking words alone as it is', () => {
    expect(terms('是谁？')).toEqual(['谁', '#谁']);
  });
});

describe('usesFeedback', () => {
  const on = { documents: 5, terms: 20 };
  it('expands English queries and not Chinese ones', () => {
    expect(usesFeedback('Mutations in the genes cause disease', on)).toBe(true);
    expect(usesFeedback('中国人民大学英语保送生招生计划人数', on)).toBe(false);
    expect(usesFeedback('Mutations', { documents: 0, terms: 20 })).toBe(false);
  });
});
