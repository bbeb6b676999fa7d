/** Names that mark a bold face: pdf.js's own test (`bold`, `black`) and the weights and short forms producers use. */
const BOLD_NAME = /bold|black|heavy|semibold|demi|extrabold|ultrabold|[-,]bd\b|-b$/i;

/** A font's name without its subset tag (`ABCDEF+`) or a CID encoding suffix (`-Identity-H`). */
export function fontBaseName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '').replace(/-Identity-[HV]$/, '');
}

/** Whether a font's name says it is bold. */
export function isBoldFontName(name: string): boolean {
  return BOLD_NAME.test(fontBaseName(name));
}
