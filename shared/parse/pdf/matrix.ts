/** A PDF transformation matrix `[a b c d e f]`. */
export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** Where a unit square painted under a matrix lands: its left and top edges and size (PDF units, y upwards). */
export interface Placement {
  x: number;
  top: number;
  width: number;
  height: number;
}

/** `n` applied before `m` (PDF's `cm` with operands `n` on a current matrix `m`). */
export function multiply(m: Matrix, n: readonly number[]): Matrix {
  const [a, b, c, d, e, f] = m;
  const [a2 = 1, b2 = 0, c2 = 0, d2 = 1, e2 = 0, f2 = 0] = n;
  return [
    a2 * a + b2 * c,
    a2 * b + b2 * d,
    c2 * a + d2 * c,
    c2 * b + d2 * d,
    e2 * a + f2 * c + e,
    e2 * b + f2 * d + f,
  ];
}

/** The page box a unit square painted under `m` covers (how an image XObject is placed). */
export function placement(m: Matrix): Placement {
  const xs = [m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]];
  const ys = [m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]];
  const x = Math.min(...xs);
  const top = Math.max(...ys);
  return { x, top, width: Math.max(...xs) - x, height: top - Math.min(...ys) };
}
