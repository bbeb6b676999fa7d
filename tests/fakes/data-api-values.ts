/**
 * The Data API's value encoding for PostgreSQL, both ways: how a parameter is bound (a
 * `stringValue` without a type hint is a `character varying`, as in Aurora, so a uuid column compared
 * with an untyped string fails there and here alike) and how a column value comes back.
 */

/** A Data API `Field` as it travels in JSON (blobs base64). */
export type Field =
  | { isNull: true }
  | { stringValue: string }
  | { longValue: number }
  | { doubleValue: number }
  | { booleanValue: boolean }
  | { blobValue: string }
  | {
      arrayValue:
        | { stringValues: string[] }
        | { longValues: number[] }
        | { doubleValues: number[] }
        | { booleanValues: boolean[] };
    };

export interface SqlParameter {
  name?: string;
  value?: Record<string, unknown>;
  typeHint?: 'DATE' | 'DECIMAL' | 'JSON' | 'TIME' | 'TIMESTAMP' | 'UUID';
}

/** Postgres type OIDs the fake binds and reads. */
const OID = {
  bool: 16,
  bytea: 17,
  int8: 20,
  int2: 21,
  int4: 23,
  oid: 26,
  json: 114,
  float4: 700,
  float8: 701,
  varchar: 1043,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  numeric: 1700,
  uuid: 2950,
  jsonb: 3802,
} as const;

const HINT_TYPES: Record<NonNullable<SqlParameter['typeHint']>, number> = {
  DATE: OID.date,
  DECIMAL: OID.numeric,
  JSON: OID.json,
  TIME: OID.time,
  TIMESTAMP: OID.timestamp,
  UUID: OID.uuid,
};

/** A bound parameter: its text (or null) and the type Postgres is told it has (0: unknown). */
export interface Bound {
  value: string | null;
  type: number;
}

/** Binds one Data API parameter the way the service does; throws on what the service refuses. */
export function bindParameter(parameter: SqlParameter): Bound {
  const value = parameter.value ?? {};
  const where = `parameter ${parameter.name ?? '(unnamed)'}`;
  if (value.isNull === true) return { value: null, type: 0 };
  if (typeof value.stringValue === 'string') {
    const type = parameter.typeHint ? HINT_TYPES[parameter.typeHint] : OID.varchar;
    if (type === undefined) throw new Error(`${where}: unknown typeHint ${parameter.typeHint}`);
    return { value: value.stringValue, type };
  }
  if (typeof value.longValue === 'number') return { value: String(value.longValue), type: OID.int8 };
  if (typeof value.doubleValue === 'number') return { value: String(value.doubleValue), type: OID.float8 };
  if (typeof value.booleanValue === 'boolean')
    return { value: value.booleanValue ? 't' : 'f', type: OID.bool };
  if (typeof value.blobValue === 'string') {
    return { value: `\\x${Buffer.from(value.blobValue, 'base64').toString('hex')}`, type: OID.bytea };
  }
  if (value.arrayValue !== undefined) throw new Error(`${where}: Array parameters are not supported.`);
  throw new Error(`${where}: the value has no supported field`);
}

const LONG_TYPES = new Set<number>([OID.int2, OID.int4, OID.int8, OID.oid]);
const DOUBLE_TYPES = new Set<number>([OID.float4, OID.float8]);
/** Array OIDs -> the element kind the Data API returns them as. */
const ARRAY_KINDS: Record<number, 'stringValues' | 'longValues' | 'doubleValues' | 'booleanValues'> = {
  1000: 'booleanValues',
  1005: 'longValues',
  1007: 'longValues',
  1016: 'longValues',
  1021: 'doubleValues',
  1022: 'doubleValues',
  1009: 'stringValues',
  1015: 'stringValues',
  2951: 'stringValues',
};

/** OIDs whose raw text the fake reads itself (PGlite's parsers are bypassed for them). */
export const RAW_TEXT_TYPES: readonly number[] = [
  OID.bool,
  OID.bytea,
  OID.int8,
  OID.int2,
  OID.int4,
  OID.oid,
  OID.json,
  OID.jsonb,
  OID.float4,
  OID.float8,
  OID.date,
  OID.time,
  OID.timestamp,
  OID.timestamptz,
  OID.numeric,
];

/**
 * One column value as the Data API returns it: integers as `longValue`, floats as `doubleValue`,
 * booleans, bytea as a blob, arrays as `arrayValue`, timestamps with time zone as UTC text without
 * the offset, everything else (numeric, uuid, json, vector, tsvector, ...) as `stringValue`.
 */
export function toField(value: unknown, type: number): Field {
  if (value === null || value === undefined) return { isNull: true };
  const arrayKind = ARRAY_KINDS[type];
  if (arrayKind && Array.isArray(value)) return arrayField(arrayKind, value);
  const text = typeof value === 'string' ? value : String(value);
  if (LONG_TYPES.has(type)) return { longValue: Number(text) };
  if (DOUBLE_TYPES.has(type)) return { doubleValue: Number(text) };
  if (type === OID.bool) return { booleanValue: text === 't' || text === 'true' };
  if (type === OID.bytea) return { blobValue: Buffer.from(text.slice(2), 'hex').toString('base64') };
  if (type === OID.timestamptz) return { stringValue: utcText(text) };
  return { stringValue: text };
}

function arrayField(kind: keyof typeof ARRAY_KIND_CAST, values: unknown[]): Field {
  const cast: (v: unknown) => unknown = ARRAY_KIND_CAST[kind];
  return { arrayValue: { [kind]: values.map((v) => cast(v)) } } as Field;
}

const ARRAY_KIND_CAST = {
  stringValues: (v: unknown) => String(v),
  longValues: (v: unknown) => Number(v),
  doubleValues: (v: unknown) => Number(v),
  booleanValues: (v: unknown) => v === true || v === 't',
};

/** `2026-01-02 03:04:05.678+02` -> `2026-01-02 01:04:05.678`. */
function utcText(text: string): string {
  if (/\+00$/.test(text)) return text.slice(0, -3);
  const date = new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
  if (Number.isNaN(date.getTime())) return text;
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
