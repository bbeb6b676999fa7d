import { describe, expect, it } from 'vitest';
import { askRequestSchema } from '#shared/qa/request.ts';

describe('askRequestSchema', () => {
  it('defaults the mode to auto and trims the question', () => {
    expect(askRequestSchema.parse({ question: '  What is the budget?  ' })).toEqual({
      question: 'What is the budget?',
      mode: 'auto',
    });
  });

  it('keeps a null version apart from an absent one (null: back to the current version in a conversation)', () => {
    expect(askRequestSchema.parse({ question: 'q', version: null }).version).toBeNull();
    expect(askRequestSchema.parse({ question: 'q' }).version).toBeUndefined();
    expect(askRequestSchema.parse({ question: 'q', version: 2 }).version).toBe(2);
  });

  it('rejects an empty or too long question, an unknown mode and malformed ids', () => {
    expect(askRequestSchema.safeParse({ question: '   ' }).success).toBe(false);
    expect(askRequestSchema.safeParse({ question: 'x'.repeat(2001) }).success).toBe(false);
    expect(askRequestSchema.safeParse({ question: 'q', mode: 'magic' }).success).toBe(false);
    expect(askRequestSchema.safeParse({ question: 'q', document_ids: ['nope'] }).success).toBe(false);
    expect(askRequestSchema.safeParse({ question: 'q', version: 0 }).success).toBe(false);
  });
});
