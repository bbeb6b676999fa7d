import { z } from 'zod';

/** zod's issue code for a check of our own (a constant: `code: '…'` literals are the server's error codes). */
const ZOD_CUSTOM = 'custom';

/**
 * A structured setting given as a value (a config file, `cdk.json`) or as its JSON text (an
 * environment variable, `-c key='{"hr/":"hr"}'`): text is parsed, then checked by `schema`; text
 * that is not JSON is refused as "not JSON".
 *
 * @example jsonText(z.record(z.string(), z.string())).parse('{"hr/":"hr"}') // { 'hr/': 'hr' }
 */
export function jsonText<T extends z.ZodType>(schema: T) {
  return z
    .unknown()
    .transform((input, ctx) => {
      if (typeof input !== 'string') return input;
      try {
        return JSON.parse(input) as unknown;
      } catch {
        ctx.addIssue({ code: ZOD_CUSTOM, message: 'not JSON (give it as {"key": "value"})' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}
