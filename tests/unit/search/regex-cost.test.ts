import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/errors.ts';
import { checkRegexCost, MAX_REPETITION } from '#shared/search/regex-cost.ts';

describe('checkRegexCost', () => {
  it.each([
    '(预算|budget) for 20[0-9]{2}',
    '\\d{4}-\\d{2}-\\d{2}',
    '(\\d{1,3}\\.){3}\\d{1,3}',
    '(a+)+x',
    '(a|aa)*x',
    '(?n)^Total:',
    '***:a{1,50}',
    '***=(a{1,200}){1,200}',
    '[[:alpha:]]+\\mword\\M',
    'path/to/file',
  ])('accepts %s', (pattern) => {
    expect(() => checkRegexCost([pattern])).not.toThrow();
  });

  it.each([
    ['(a{1,200}){1,200}x', /asks for 40000/],
    ['(a{1,100}){1,100}x', /asks for 10000/],
    ['a{1,255}x', /asks for 255/],
    ['(?i)(ab{2,50}){3,}', /asks for 150/],
  ])('refuses %s as repeating too much', (pattern, asks) => {
    const error = (() => {
      try {
        checkRegexCost([pattern]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/repeats too much/);
    expect((error as Error).message).toMatch(asks);
    expect((error as Error).message).toContain(`at most ${MAX_REPETITION} copies`);
  });

  it('counts the repetitions of all the patterns of one search together', () => {
    expect(() => checkRegexCost(['a{60}', 'b{60}'])).toThrow(/ask for 120 copies in all/);
    expect(() => checkRegexCost(['a{40}', 'b{40}'])).not.toThrow();
  });

  it('refuses back-references', () => {
    expect(() => checkRegexCost(['(a*)\\1x'])).toThrow(/back-reference/);
  });

  it('refuses what it cannot read with the parser message', () => {
    expect(() => checkRegexCost(['(unclosed'])).toThrow(/invalid regular expression '\(unclosed'/);
  });
});
