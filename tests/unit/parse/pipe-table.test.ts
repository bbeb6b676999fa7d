import { describe, expect, it } from 'vitest';
import { pipeTable } from '#shared/parse/pipe-table.ts';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';

describe('pipe tables', () => {
  it('pads every row to the widest, escapes pipes and backslashes, and makes line breaks spaces', () => {
    expect(
      pipeTable([['Region', 'Q1'], ['North', '10', 'extra'], ['a|b'], ['back\\slash', 'two \n lines']]),
    ).toBe(
      [
        '| Region | Q1 |  |',
        '| --- | --- | --- |',
        '| North | 10 | extra |',
        '| a\\|b |  |  |',
        '| back\\\\slash | two lines |  |',
      ].join('\n'),
    );
  });

  it('gives nothing for no rows', () => {
    expect(pipeTable([])).toBe('');
  });
});

describe('collapseSpaces', () => {
  it('makes each whitespace run one space and trims, keeping already even text as it is', () => {
    expect(collapseSpaces('  Travel \n\t policy ')).toBe('Travel policy');
    expect(collapseSpaces('a\u00a0b\u3000c')).toBe('a b c');
    expect(collapseSpaces('already even text')).toBe('already even text');
    expect(collapseSpaces(' ')).toBe('');
    expect(collapseSpaces('')).toBe('');
  });
});
