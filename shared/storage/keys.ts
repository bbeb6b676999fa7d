import { ValidationError } from '../errors.ts';

/** S3's own limit on key length, in UTF-8 bytes; the local store keeps the same bound. */
export const MAX_KEY_BYTES = 1024;

/** Control characters (NUL included) break file systems, logs and S3 XML listings alike. */
function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Throws a `ValidationError` unless `key` is a safe object key: relative, `/`-separated, no empty,
 * `.` or `..` segments, no backslashes or control characters, at most 1024 UTF-8 bytes. Every store
 * checks every key with this one function, so a key can never name a file outside the bucket.
 *
 * @example assertSafeKey('documents/abc/v1/content.md') // ok
 * @example assertSafeKey('../etc/passwd') // throws
 */
export function assertSafeKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new ValidationError('Object key is empty');
  const reason = unsafeReason(key);
  if (reason) throw new ValidationError(`Object key ${JSON.stringify(key.slice(0, 200))} ${reason}`);
}

/**
 * Checks a listing prefix: empty (everything), or a safe key optionally ending in `/`. Prefixes are
 * plain string prefixes, as in S3: `docs/a` matches `docs/a/x` and `docs/ab`.
 */
export function assertSafePrefix(prefix: string): void {
  if (prefix === '') return;
  assertSafeKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

function unsafeReason(key: string): string | undefined {
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) return `is longer than ${MAX_KEY_BYTES} bytes`;
  if (hasControlCharacter(key)) return 'contains a control character';
  if (key.includes('\\')) return 'contains a backslash';
  if (key.startsWith('/')) return 'is absolute';
  if (/^[A-Za-z]:/.test(key)) return 'starts with a drive letter';
  for (const segment of key.split('/')) {
    if (segment === '') return 'has an empty path segment';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment`;
  }
  return undefined;
}
