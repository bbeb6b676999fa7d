/**
 * True for an Enter that confirms an input method's candidate (Chinese pinyin, Japanese kana) rather
 * than sending: `isComposing` in most browsers; Safari ends the composition before the keydown and
 * marks that Enter only with keyCode 229.
 */
export function isImeEnter(event: { isComposing: boolean; keyCode: number }): boolean {
  return event.isComposing || event.keyCode === 229;
}

/** An answer's Markdown as a sentence for a screen reader: marks and citation markers left out, clipped. */
export function plainAnswer(markdown: string, max = 400): string {
  const text = markdown
    .replace(/\[(?:\d{1,3}|DOC-[0-9a-f]{8}-(?:PARA|IMAGE)-\d{1,5})\]/g, '')
    .replace(/[#*_`>|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
