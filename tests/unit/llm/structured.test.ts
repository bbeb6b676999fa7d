import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkOutput, outputSchema, parseJsonText } from '#shared/llm/chat/structured.ts';

describe('outputSchema', () => {
  it('gives an object schema as it is', () => {
    const { jsonSchema, wrapped } = outputSchema(z.object({ name: z.string() }));
    expect(wrapped).toBe(false);
    expect(jsonSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } } });
    expect(jsonSchema.$schema).toBeUndefined();
  });

  it('wraps a non-object schema in { value }', () => {
    const { jsonSchema, wrapped } = outputSchema(z.array(z.string()));
    expect(wrapped).toBe(true);
    expect(jsonSchema).toMatchObject({
      type: 'object',
      required: ['value'],
      properties: { value: { type: 'array' } },
    });
  });
});

describe('checkOutput', () => {
  const schema = z.object({ subqueries: z.array(z.object({ text: z.string() })) });

  it('says where the output fails the schema', () => {
    const result = checkOutput(schema, { subqueries: [{ text: 'a' }, { text: 3 }] }, false);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(/^subqueries\[1\]\.text: /);
  });

  it('unwraps a wrapped value', () => {
    expect(checkOutput(z.array(z.number()), { value: [1, 2] }, true)).toEqual({ ok: true, value: [1, 2] });
  });
});

describe('parseJsonText', () => {
  it('reads plain JSON, a fenced block and JSON inside prose', () => {
    expect(parseJsonText('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonText('Here:\n```json\n{"a":2}\n```')).toEqual({ ok: true, value: { a: 2 } });
    expect(parseJsonText('The answer is {"a":3}. Done.')).toEqual({ ok: true, value: { a: 3 } });
  });

  it('reports text without JSON', () => {
    expect(parseJsonText('no json here').ok).toBe(false);
  });
});
