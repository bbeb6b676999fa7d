import { describe, expect, it } from 'vitest';
import { failureCode, failureReason } from '#shared/pipeline/failure-reason.ts';

describe('failureReason', () => {
  it('uses the thrown message that the local runner puts in Cause', () => {
    expect(failureReason({ Error: 'UnsupportedDocumentError', Cause: 'a.md: the file is empty' })).toBe(
      'a.md: the file is empty',
    );
  });

  it('extracts errorMessage from the JSON Cause of a Lambda error', () => {
    const cause = JSON.stringify({ errorType: 'Error', errorMessage: 'disk full', trace: ['at x'] });
    expect(failureReason({ Error: 'Error', Cause: cause })).toBe('disk full');
  });

  it('keeps a Cause that only looks like JSON', () => {
    expect(failureReason({ Error: 'Error', Cause: '{not json' })).toBe('{not json');
  });

  it('describes a timeout whose cause only repeats its name', () => {
    expect(failureReason({ Error: 'States.Timeout', Cause: 'States.Timeout' })).toMatch(/time limit/);
  });

  it('falls back to the error name, and to "unknown error" without one', () => {
    expect(failureReason({ Error: 'CustomError' })).toBe('CustomError');
    expect(failureReason(undefined)).toBe('unknown error');
  });

  it('bounds very long reasons', () => {
    expect(failureReason({ Error: 'E', Cause: 'x'.repeat(10_000) }).length).toBeLessThanOrEqual(2000);
  });
});

describe('failureCode', () => {
  it('names the kind of failure by the error, for a client to say in its language', () => {
    expect(failureCode({ Error: 'UnsupportedDocumentError', Cause: 'a.md: the file is empty' })).toBe(
      'unsupported_document',
    );
    expect(failureCode({ Error: 'ProviderError', Cause: 'bedrock: throttled' })).toBe('provider_failed');
    expect(failureCode({ Error: 'States.Timeout' })).toBe('timeout');
    expect(failureCode({ Error: 'DatabaseError', Cause: 'database error: x' })).toBe('database');
  });

  it('says `failed` for any other error, and without one', () => {
    expect(failureCode({ Error: 'Error', Cause: 'topics broke' })).toBe('failed');
    expect(failureCode(undefined)).toBe('failed');
  });
});
