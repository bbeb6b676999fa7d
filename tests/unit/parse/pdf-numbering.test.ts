import { describe, expect, it } from 'vitest';
import { headingNumber } from '#shared/parse/pdf/numbering.ts';

describe('headingNumber', () => {
  it.each([
    ['第一章 总则', { depth: 1, strong: true }],
    ['第 3 节 范围', { depth: 2, strong: true }],
    ['第十二条 附则', { depth: 3, strong: true }],
    ['一、项目背景', { depth: 1, strong: true }],
    ['（二）实施范围', { depth: 2, strong: true }],
    ['Chapter IV Results', { depth: 1, strong: true }],
    ['Section 4.1 Scope', { depth: 2, strong: true }],
    ['1.2 Scope', { depth: 2, strong: true }],
    ['1.2.3. Limits', { depth: 3, strong: true }],
    ['3. Results', { depth: 1, strong: false }],
    ['B. Appendix', { depth: 1, strong: false }],
  ])('reads the numbering of "%s"', (text, expected) => {
    expect(headingNumber(text)).toEqual(expected);
  });

  it.each(['2024 was a good year', 'The 1.2 release', 'Results and discussion', '3.5% growth'])(
    'finds no heading numbering in "%s"',
    (text) => {
      expect(headingNumber(text)).toBeUndefined();
    },
  );
});
