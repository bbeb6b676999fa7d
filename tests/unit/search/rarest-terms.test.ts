import { describe, expect, it } from 'vitest';
import type { QueryTerm } from '#shared/search/bm25.ts';
import { MAX_QUERY_TERMS, queryTerms, rarestTerms } from '#shared/search/fulltext.ts';

const terms = (...names: string[]): QueryTerm[] => names.map((term) => ({ term, weight: 1 }));

describe('rarestTerms', () => {
  it('keeps every term of a query no longer than the cap, in its order', () => {
    const query = terms('政府', '稀土', '#稀');
    expect(rarestTerms(query, new Map(), 3)).toEqual(query);
  });

  it('keeps the rarest terms of a longer query, in the question order, ties by position', () => {
    const df = new Map([
      ['政府', 40],
      ['水平', 40],
      ['#年', 300],
      ['稀土', 1],
      ['#稀', 2],
    ]);
    expect(rarestTerms(terms('政府', '水平', '#年', '稀土', '#稀'), df, 3)).toEqual(
      terms('政府', '稀土', '#稀'),
    );
  });

  it('drops terms no leaf holds before any other', () => {
    const df = new Map([
      ['common', 900],
      ['sclerostin', 2],
    ]);
    expect(rarestTerms(terms('unknown', 'common', 'sclerostin'), df, 2)).toEqual(
      terms('common', 'sclerostin'),
    );
  });
});

describe('queryTerms', () => {
  it('gives every distinct term of a long question, so the cap can choose among them', () => {
    const question = `${'政府、企业、学校、医院、银行、工厂、农村、城市、交通、医疗、教育、环境、住房、能源、科技、旅游、农业、工业、商业、金融'}，其中稀土出口配额起了什么作用？`;
    const all = queryTerms(question).map((t) => t.term);
    expect(all.length).toBeGreaterThan(MAX_QUERY_TERMS);
    expect(all).toEqual([...new Set(all)]);
    expect(all).toEqual(expect.arrayContaining(['稀土', '配额', '#稀土']));
  });
});
