import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/errors.ts';
import { assertSafeKey, assertSafePrefix } from '#shared/storage/keys.ts';

describe('assertSafeKey', () => {
  it('accepts relative slash-separated keys with any Unicode names', () => {
    for (const key of ['a.md', 'documents/abc/v1/content.md', '资料/报告 2024.md', 'x/.hidden', 'a..b/c'])
      expect(() => assertSafeKey(key)).not.toThrow();
  });

  it('rejects keys that could leave the bucket or alias another key', () => {
    const bad = [
      '',
      '/etc/passwd',
      '../x',
      'a/../../x',
      'a/./b',
      'a//b',
      'a/',
      'a\\b',
      'C:/x',
      'a\u0000b',
      'a\nb',
    ];
    for (const key of bad) expect(() => assertSafeKey(key), key).toThrow(ValidationError);
  });

  it('rejects keys longer than 1024 UTF-8 bytes even when shorter in characters', () => {
    expect(() => assertSafeKey('a'.repeat(1024))).not.toThrow();
    expect(() => assertSafeKey('字'.repeat(342))).toThrow(/longer than 1024 bytes/);
  });

  it('names the reason in the message', () => {
    expect(() => assertSafeKey('a/../b')).toThrow(/"\.\." segment/);
  });
});

describe('assertSafePrefix', () => {
  it('accepts the empty prefix and a trailing slash', () => {
    expect(() => assertSafePrefix('')).not.toThrow();
    expect(() => assertSafePrefix('documents/')).not.toThrow();
    expect(() => assertSafePrefix('documents/ab')).not.toThrow();
  });

  it('rejects unsafe prefixes', () => {
    expect(() => assertSafePrefix('../')).toThrow(ValidationError);
    expect(() => assertSafePrefix('/abs/')).toThrow(ValidationError);
  });
});
