import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { toStepError } from '#shared/pipeline/step-error.ts';

function queryError(cause: Error): Error {
  const error = new Error('Failed query: select "id" from "documents" where "key" = $1\nparams: secret.md', {
    cause,
  });
  error.name = 'DrizzleQueryError';
  return error;
}

describe('toStepError', () => {
  it('keeps typed errors as they are', () => {
    const error = new UnsupportedDocumentError('a.md: the file is empty');
    expect(toStepError(error)).toBe(error);
  });

  it('wraps thrown non-errors', () => {
    expect(toStepError('boom')).toMatchObject({ name: 'Error', message: 'boom' });
  });

  it('reports a failed query by the driver message, without the SQL or its parameters', () => {
    const converted = toStepError(queryError(Object.assign(new Error('value too long'), { code: '22001' })));
    expect(converted).toMatchObject({ name: 'DatabaseError', message: 'database error: value too long' });
    expect(converted.message).not.toMatch(/select|secret/);
  });

  it('marks dropped connections and deadlocks transient so the definition retries them', () => {
    expect(toStepError(queryError(new Error('Connection terminated unexpectedly'))).name).toBe(
      'TransientError',
    );
    expect(
      toStepError(queryError(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).name,
    ).toBe('TransientError');
  });
});
