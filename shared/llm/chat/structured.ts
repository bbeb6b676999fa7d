import { type ZodType, z } from 'zod';

/** The JSON schema sent to the model, and whether the value was wrapped to make it an object. */
export interface OutputSchema {
  jsonSchema: Record<string, unknown>;
  /** Tool inputs must be objects: a non-object schema travels as `{ value: <schema> }`. */
  wrapped: boolean;
}

/** The JSON schema of a zod schema (zod 4's `z.toJSONSchema`), as an object schema. */
export function outputSchema(schema: ZodType): OutputSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  if (json.type === 'object') return { jsonSchema: json, wrapped: false };
  return {
    jsonSchema: { type: 'object', properties: { value: json }, required: ['value'] },
    wrapped: true,
  };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Validates model output against the schema; the problem names where it failed
 * (`subqueries[1].text: Invalid input: expected string`), for the repair request and the error.
 */
export function checkOutput<T>(schema: ZodType<T>, raw: unknown, wrapped: boolean): Checked<T> {
  const candidate =
    wrapped && raw !== null && typeof raw === 'object' && 'value' in raw
      ? (raw as { value: unknown }).value
      : raw;
  const result = schema.safeParse(candidate);
  if (result.success) return { ok: true, value: result.data };
  const problem = result.error.issues
    .slice(0, 5)
    .map((issue) => `${formatPath(issue.path) || '(root)'}: ${issue.message}`)
    .join('; ');
  return { ok: false, problem };
}

/** Parses JSON from a model's text: the whole text, a fenced block, or the outermost braces. */
export function parseJsonText(text: string): Checked<unknown> {
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (start >= 0 && end > start) candidates.push(text.slice(start, end + 1));
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // try the next form
    }
  }
  return { ok: false, problem: 'the reply is not JSON' };
}

function formatPath(path: PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${String(key)}`))
    .join('');
}
