import type { z } from 'zod';
import { ValidationError } from '../errors.ts';

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
    );
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${[where, ...i.path].join('.')}: ${i.message}`);
  throw new ValidationError(problems.join('; '));
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
