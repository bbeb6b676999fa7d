import regexpTree from 'regexp-tree';
import type { AstRegExp } from 'regexp-tree/ast';
import { ValidationError } from '#shared/errors.ts';

type Expression = NonNullable<AstRegExp['body']>;

/**
 * The most copies of an atom that counted repetitions may ask for, nested ones multiplied
 * (`(a{1,10}){1,10}` asks for 100), in one pattern and over all the patterns of a search.
 * PostgreSQL's regex engine expands counted repetitions into its automaton, so the time a pattern
 * costs on every row grows with this number: measured on PGlite over 2,000 paragraphs,
 * `(a{1,10}){1,10}x` took 96 ms, `a{1,255}x` 145 ms, `(a{1,30}){1,30}x` 841 ms and
 * `(a{1,100}){1,100}x` held the server for 10 s at 20,000. Unbounded `*`, `+` and `?`, nested or
 * not (`(a+)+x`, `(a|aa)*x`), cost 20 ms: the engine does not backtrack on them.
 */
export const MAX_REPETITION = 100;

/** PostgreSQL ARE prefixes (`***:` and embedded options like `(?n)`) the JS parser does not know. */
const ARE_PREFIX = /^(\*\*\*:)?(\(\?[bceimnpqstwx]+\))?/;

/**
 * Refuses, before they reach the database, regular expressions whose counted repetitions would
 * hold it (see `MAX_REPETITION`) and back-references (which make the engine backtrack). The
 * pattern's own syntax is checked by the database afterwards. The patterns are read with
 * `regexp-tree` (JavaScript syntax, close enough to PostgreSQL's ARE for counting repetitions).
 *
 * @example checkRegexCost(['\\d{4}-\\d{2}']) // fine
 * @throws ValidationError naming the pattern and what to change.
 */
export function checkRegexCost(patterns: readonly string[]): void {
  let total = 0;
  for (const pattern of patterns) {
    const cost = regexCost(pattern);
    if (cost.backreference) {
      throw new ValidationError(
        `regular expression '${pattern}' uses a back-reference (\\1 ...), which search does not accept`,
      );
    }
    if (cost.largest > MAX_REPETITION) {
      throw new ValidationError(
        `regular expression '${pattern}' repeats too much: counted repetitions ({m,n}) may ask for at most ${MAX_REPETITION} copies, nested ones multiplied (this one asks for ${cost.largest})`,
      );
    }
    total += cost.copies;
  }
  if (total > MAX_REPETITION) {
    throw new ValidationError(
      `the regular expressions of this search repeat too much: their counted repetitions ({m,n}) ask for ${total} copies in all, at most ${MAX_REPETITION} are allowed`,
    );
  }
}

interface RegexCost {
  /** The largest number of copies one counted repetition asks for, enclosing counts multiplied. */
  largest: number;
  /** The sum of that over every counted repetition. */
  copies: number;
  backreference: boolean;
}

function regexCost(pattern: string): RegexCost {
  // `***=`: the rest is a literal string.
  if (pattern.startsWith('***=')) return { largest: 0, copies: 0, backreference: false };
  const body = pattern.replace(ARE_PREFIX, '');
  let ast: AstRegExp;
  try {
    ast = regexpTree.parse(`/${body.replace(/\//g, '\\/')}/`);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ValidationError(`invalid regular expression '${pattern}': ${reason}`, { cause: error });
  }
  const cost: RegexCost = { largest: 0, copies: 0, backreference: false };
  if (ast.body) weigh(ast.body, 1, cost);
  return cost;
}

function weigh(node: Expression, outer: number, cost: RegexCost): void {
  switch (node.type) {
    case 'Alternative':
      for (const child of node.expressions) weigh(child, outer, cost);
      return;
    case 'Disjunction':
      if (node.left) weigh(node.left, outer, cost);
      if (node.right) weigh(node.right, outer, cost);
      return;
    case 'Group':
      if (node.expression) weigh(node.expression, outer, cost);
      return;
    case 'Assertion':
      if ('assertion' in node && node.assertion) weigh(node.assertion, outer, cost);
      return;
    case 'Backreference':
      cost.backreference = true;
      return;
    case 'Repetition': {
      const q = node.quantifier;
      const count = q.kind === 'Range' ? Math.max(q.from, q.to ?? q.from, 1) : 1;
      const copies = outer * count;
      if (count > 1) {
        cost.largest = Math.max(cost.largest, copies);
        cost.copies += copies;
      }
      weigh(node.expression, copies, cost);
      return;
    }
    default:
      return;
  }
}
