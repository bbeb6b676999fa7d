/**
 * A pgvector text literal. pgvector stores float4, so seven significant digits lose nothing and
 * halve the statement size.
 *
 * @example vectorLiteral([0.5, 0, -0.25]) // '[0.5000000,0,-0.2500000]'
 */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.map((x) => (x === 0 ? '0' : x.toPrecision(7))).join(',')}]`;
}
