import type { z } from 'zod';
import { type ErrorReason, ValidationError } from '../errors.ts';

/**
 * Parses input with a schema; a failure names each bad field (`query.limit: ...`). Every string of
 * the input (and every object key) is checked for NUL first, whatever the schema: Postgres cannot
 * store U+0000 in text, and a request must never reach the database with one.
 *
 * @throws ValidationError naming the fields.
 * @example parseInput(documentListQuery, { q: 'a\u0000' }, 'query') // throws "query.q: must not contain a NUL character"
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: string): z.infer<S> {
  const withNul = nulPaths(input, [where]);
  if (withNul.length > 0) {
    throw new ValidationError(
      withNul.map((path) => `${path.join('.')}: must not contain a NUL character (\\u0000)`).join('; '),
      { reason: { reason: 'nul_character', params: { field: withNul[0]?.join('.') ?? where } } },
    );
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { issues } = result.error;
  const problems = issues.map((i) => `${[where, ...i.path].join('.')}: ${i.message}`);
  throw new ValidationError(problems.join('; '), {
    reason: issues[0] ? issueReason(issues[0], where) : undefined,
  });
}

/**
 * The first problem as a reason a client can say in its own words: `empty`, `too_long` (text),
 * `too_big` / `too_small` / `not_above` (numbers, lists; `not_above`: must be greater than `minimum`), `not_allowed` (an enum), `bad_format` (a UUID, a
 * date), else `invalid`; `field` names the input (`body.question`).
 */
function issueReason(issue: z.core.$ZodIssue, where: string): ErrorReason {
  const field = [where, ...issue.path].join('.');
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) <= 1)
        return { reason: 'empty', params: { field } };
      return {
        reason: issue.inclusive === false ? 'not_above' : 'too_small',
        params: { field, minimum: Number(issue.minimum) },
      };
    case 'too_big':
      return {
        reason: issue.origin === 'string' ? 'too_long' : 'too_big',
        params: { field, maximum: Number(issue.maximum) },
      };
    case 'invalid_value':
      return { reason: 'not_allowed', params: { field, allowed: issue.values.map(String).join(', ') } };
    case 'invalid_format':
      return { reason: 'bad_format', params: { field, format: issue.format } };
    default:
      return { reason: 'invalid', params: { field } };
  }
}

/** The paths of the strings (values or keys) holding U+0000, depth first. */
function nulPaths(value: unknown, path: (string | number)[]): (string | number)[][] {
  if (typeof value === 'string') return value.includes('\u0000') ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulPaths(item, [...path, i]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key.includes('\u0000') ? [[...path, JSON.stringify(key)]] : nulPaths(item, [...path, key]),
  );
}
