/** The vector scaled to unit length (the zero vector stays zero). */
export function unitLength(vector: number[]): number[] {
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  return vector.map((x) => x * scale);
}

/** Splits `items` into consecutive chunks of at most `size`. */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Texts with nothing to embed get the zero vector without a model call. */
export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}
