import { describe, expect, it } from 'vitest';
import { splitSentences } from '#shared/text/sentences.ts';

describe('splitSentences', () => {
  it('keeps "No. 1" and other numbered abbreviations inside their sentence', () => {
    expect(splitSentences('Barty was ranked No. 1 in the world. She won Wimbledon in 2021.')).toEqual([
      'Barty was ranked No. 1 in the world.',
      'She won Wimbledon in 2021.',
    ]);
    expect(splitSentences('See Vol. 2 and pp. 12-14 for the tables.')).toEqual([
      'See Vol. 2 and pp. 12-14 for the tables.',
    ]);
  });

  it('still ends a sentence at a period that a number opening the next one follows', () => {
    expect(splitSentences('The plant closed. 300 people lost their jobs.')).toEqual([
      'The plant closed.',
      '300 people lost their jobs.',
    ]);
  });

  it('splits Chinese and English sentences and keeps decimals whole', () => {
    expect(splitSentences('预算为500万。It grew 3.5 percent. Why?')).toEqual([
      '预算为500万。',
      'It grew 3.5 percent.',
      'Why?',
    ]);
  });
});
