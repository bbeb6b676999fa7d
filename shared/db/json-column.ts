/**
 * A `json`/`jsonb` value read with raw SQL: node-postgres and PGlite parse it, the RDS Data API
 * returns its text (a raw query carries no column types for the driver to map), so both are read
 * here. `fallback` stands in for SQL NULL.
 *
 * @example const metadata = jsonColumn(row.metadata, {}); // the same object over every driver
 */
export function jsonColumn<T>(value: T | string | null | undefined, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}
