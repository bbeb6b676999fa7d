import { ValidationError } from '#shared/errors.ts';

/**
 * The object key as S3 events carry it, decoded. S3 URL-encodes keys in its event notifications
 * the way HTML forms encode values ("red flower.jpg" arrives as "red+flower.jpg", UTF-8 as %XX
 * escapes, a literal '+' as %2B). The EventBridge event reference does not restate it, but the
 * keys arrive encoded there too: AWS's own consumers of these events (Powertools'
 * S3EventBridgeNotificationObject, OpenSearch Data Prepper) decode `detail.object.key` the same way.
 *
 * @example decodeS3EventKey('uploads/%E5%AD%A3%E5%BA%A6+report.md') // 'uploads/季度 report.md'
 */
export function decodeS3EventKey(key: string): string {
  try {
    return decodeURIComponent(key.replaceAll('+', ' '));
  } catch {
    throw new ValidationError(`The S3 event's object key is not URL-encoded: ${key}`);
  }
}

/**
 * An EventBridge S3 event with `detail.object.key` decoded (see `decodeS3EventKey`); anything
 * else is returned as it is, for the event schema to judge.
 */
export function withDecodedKey(event: unknown): unknown {
  const detail = (event as { detail?: { object?: { key?: unknown } } } | null)?.detail;
  const key = detail?.object?.key;
  if (typeof key !== 'string') return event;
  return {
    ...(event as object),
    detail: { ...detail, object: { ...detail?.object, key: decodeS3EventKey(key) } },
  };
}
