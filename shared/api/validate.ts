import type { z } from 'zod';
import { ValidationError } from '../errors.ts';

/** Parses input with a schema; a failure names each bad field (`query.limit: ...`). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${[where, ...i.path].join('.')}: ${i.message}`);
  throw new ValidationError(problems.join('; '));
}
