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
    if (value !== null && value !== undefined) bytes += Buffer.byteLength(JSON.stringify(String(value)));
  }
  return bytes;
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
