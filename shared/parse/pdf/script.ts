const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/** Whether a character is CJK (ideographs, kana, CJK and full-width punctuation). */
export function isCjk(char: string | undefined): boolean {
  return char !== undefined && CJK.test(char);
}

/**
 * Joins two pieces of text of one line or paragraph: no space between CJK characters, after a
 * trailing space or before a leading one, a space otherwise.
 */
export function joinText(left: string, right: string, spaced: boolean): string {
  if (left === '') return right;
  if (right === '') return left;
  const last = left.at(-1);
  const first = right[0];
  if (!spaced || /\s/.test(last ?? '') || /\s/.test(first ?? '')) return left + right;
  if (isCjk(last) && isCjk(first)) return left + right;
  return `${left} ${right}`;
}
