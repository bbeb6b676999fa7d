/**
 * The RDS Data API's size limits, which every statement must fit whatever the database: a request
 * (SQL and parameters as JSON) above 4 MiB is refused, and so is a result above 1 MiB. Writes are
 * cut into statements of at most `MAX_STATEMENT_BYTES` of values and whole-version reads are paged
 * (`readVersionNodes`), each with room for the JSON around the values.
 */
export const DATA_API_REQUEST_BYTES = 4 * 1024 * 1024;
export const DATA_API_RESPONSE_BYTES = 1024 * 1024;

/** The values of one multi-row statement: 3 MiB of the request's 4. */
export const MAX_STATEMENT_BYTES = 3 * 1024 * 1024;

/** What one bound parameter adds to a Data API request besides its value (name, type, braces). */
const PARAMETER_BYTES = 48;

/**
 * The bytes a row's values take in a Data API request: each value as the JSON string it travels as
 * (escapes included), plus the parameter's wrapping.
 *
 * @example parameterBytes([id, 'text', vectorLiteral]) // ~ the three values' JSON sizes + 144
 */
export function parameterBytes(values: readonly unknown[]): number {
  let bytes = 0;
  for (const value of values) {
    bytes += PARAMETER_BYTES;
    if (value !== null && value !== undefined) bytes += jsonStringBytes(String(value));
  }
  return bytes;
}

/** Characters JSON writes as they are, one byte each in UTF-8. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7f]*$/;

/**
 * `Buffer.byteLength(JSON.stringify(text))`, counted without building either: a document's writes
 * size ~1,300 values, among them its vectors as ~2 KB literals.
 *
 * @example jsonStringBytes('a"b') // 6: the quotes around it, a, \", b
 */
export function jsonStringBytes(text: string): number {
  if (PLAIN_ASCII.test(text)) return text.length + 2;
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) bytes += 2;
    else if (c < 0x20) bytes += ESCAPED_CONTROL.has(c) ? 2 : 6;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i += 1;
    } else if (c >= 0xd800 && c <= 0xdfff)
      bytes += 6; // a lone surrogate: written as \udXXX
    else bytes += 3;
  }
  return bytes;
}

/** Control characters JSON writes as a backslash and a letter (\b \t \n \f \r); the others as \u00XX. */
const ESCAPED_CONTROL = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * Consecutive batches of `items`, each of at most `maxRows` items and `maxBytes` bytes by `bytesOf`
 * (an item larger than `maxBytes` alone makes a batch): the rows of multi-row statements that stay
 * under the Data API's request limit.
 *
 * @example for (const batch of byteBatches(rows, (r) => parameterBytes([r.id, r.text]))) await insert(batch);
 */
export function byteBatches<T>(
  items: readonly T[],
  bytesOf: (item: T) => number,
  { maxBytes = MAX_STATEMENT_BYTES, maxRows = 500 }: { maxBytes?: number; maxRows?: number } = {},
): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    if (batch.length > 0 && (batch.length >= maxRows || bytes + size > maxBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
