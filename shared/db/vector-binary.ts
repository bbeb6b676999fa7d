import type { PGlite } from '@electric-sql/pglite';

/** pgvector's largest vector (`VECTOR_MAX_DIM`): past it the database says what is wrong. */
const MAX_DIMENSIONS = 16_000;
/** A decimal number as `vectorLiteral` writes one ("-0.2500000", "1.234567e-8", "0"). */
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

const scratch = new DataView(new ArrayBuffer(4));

/**
 * pgvector's binary form (`vector_recv`) of a vector literal ("[0.5,0,-0.25]"): the dimensions and
 * an unused field (int16 each), then each element as a big-endian float4. Each element is rounded
 * to float4 as the database's own text input (`strtof`) rounds it: the same stored vector. Undefined
 * when the literal is anything else (not finite, malformed, no or too many dimensions, or an element
 * that lies exactly between two float4s as a double, where rounding twice could differ from `strtof`):
 * such a literal goes as text and the database parses it, or says what is wrong with it.
 *
 * @example vectorBinary('[0.5,0,-0.25]') // 12 bytes: 0 3 0 0, then 0.5, 0, -0.25 as float4
 */
export function vectorBinary(literal: string): Uint8Array | undefined {
  if (literal.length < 3 || literal[0] !== '[' || literal[literal.length - 1] !== ']') return undefined;
  const parts = literal.slice(1, -1).split(',');
  if (parts.length > MAX_DIMENSIONS) return undefined;
  const bytes = new DataView(new ArrayBuffer(4 + 4 * parts.length));
  bytes.setInt16(0, parts.length);
  for (const [i, part] of parts.entries()) {
    if (!DECIMAL.test(part)) return undefined;
    const value = Number(part);
    const single = Math.fround(value);
    if (!Number.isFinite(single) || isFloat4Tie(value, single)) return undefined;
    bytes.setFloat32(4 + 4 * i, single);
  }
  return new Uint8Array(bytes.buffer);
}

/**
 * Whether a double lies exactly halfway between its float4 rounding and the float4 on its other side:
 * there `Math.fround` breaks the tie to even, while the decimal it was read from may lie on either
 * side (only a correctly rounded read of the decimal itself, as `strtof`, knows). Anywhere else the
 * double and its decimal round to the same float4.
 */
function isFloat4Tie(value: number, single: number): boolean {
  if (value === single) return false;
  if (single === 0) return Math.abs(value) === 2 ** -150;
  scratch.setFloat32(0, single);
  const bits = scratch.getUint32(0);
  // Bits of a float4 of one sign count up with its magnitude.
  scratch.setUint32(0, Math.abs(value) > Math.abs(single) ? bits + 1 : bits - 1);
  return (single + scratch.getFloat32(0)) / 2 === value;
}

/**
 * Makes an embedded database send vector parameters in pgvector's binary form (`vectorBinary`):
 * the statements and their text values stay the same on every driver, but PGlite's Postgres,
 * compiled to WebAssembly, reads a float from text slowly (a document's 70 vectors of 256
 * dimensions: ~20 ms of its ~30 ms insert). No-op until the `vector` extension exists (before the
 * migrations of a new database); returns whether it is installed.
 */
export async function installVectorSerializer(pglite: PGlite): Promise<boolean> {
  const { rows } = await pglite.query<{ oid: number }>(
    `SELECT t.oid FROM pg_type t JOIN pg_extension e ON e.extnamespace = t.typnamespace
      WHERE t.typname = 'vector' AND e.extname = 'vector'`,
  );
  const oid = rows[0]?.oid;
  if (oid === undefined) return false;
  // PGlite sends a parameter its serializer turns into bytes in binary format (Bind format code 1).
  pglite.serializers[oid] = ((value: unknown) => {
    const text = String(value);
    return vectorBinary(text) ?? text;
  }) as (value: unknown) => string;
  return true;
}
