/**
 * A column's letters from its 1-based number.
 *
 * @example columnLetter(28) // 'AB'
 */
export function columnLetter(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** The name of a column without a header cell: `Column C`. */
export function fallbackColumnName(column: number): string {
  return `Column ${columnLetter(column)}`;
}
