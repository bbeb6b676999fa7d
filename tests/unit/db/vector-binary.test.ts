import { describe, expect, it } from 'vitest';
import { vectorBinary } from '#shared/db/vector-binary.ts';

describe('vectorBinary', () => {
  it('writes the dimensions, an unused zero and each element as a big-endian float4', () => {
    const bytes = vectorBinary('[0.5000000,0,-0.2500000]');
    expect(bytes).toBeDefined();
    const view = new DataView((bytes as Uint8Array).buffer);
    expect(view.byteLength).toBe(4 + 3 * 4);
    expect([view.getInt16(0), view.getInt16(2)]).toEqual([3, 0]);
    expect([view.getFloat32(4), view.getFloat32(8), view.getFloat32(12)]).toEqual([0.5, 0, -0.25]);
  });

  it('rounds each element to the nearest float4, exponent forms included', () => {
    const view = new DataView((vectorBinary('[0.1000000,1.234567e-8,-3.000000e+2]') as Uint8Array).buffer);
    expect([view.getFloat32(4), view.getFloat32(8), view.getFloat32(12)]).toEqual([
      Math.fround(0.1),
      Math.fround(1.234567e-8),
      -300,
    ]);
  });

  it('leaves to the database a literal it does not write itself: malformed, empty, not finite', () => {
    for (const literal of ['', '[]', '[1,,2]', '[1, 2]', '{1,2}', '[0x10]', '[NaN]', '[Infinity]', '[1e39]'])
      expect(vectorBinary(literal), literal).toBeUndefined();
  });

  it('leaves to the database a value exactly between two float4s, where rounding twice may differ', () => {
    // 1 + 2^-24 lies halfway between the float4s 1 and 1 + 2^-23: the decimal just above it reads
    // as that very double, which Math.fround rounds to even (1) and strtof up.
    expect(vectorBinary('[1.0000000596046447753906251]')).toBeUndefined();
    expect(vectorBinary('[1.000000059604644775390625]')).toBeUndefined();
    expect(vectorBinary('[1.000000]')).toBeDefined();
  });
});
