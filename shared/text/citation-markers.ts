/** One citation of DropQA's marker grammar: a passage number, or a documents-mode block reference. */
const CITATION = String.raw`(?:\d+|DOC-[0-9A-Fa-f]{8}-(?:PARA|IMAGE)-\d+)`;

/**
 * A bracketed marker list: `[3]`, `[1, 2]`, `[DOC-1a2b3c4d-PARA-2]`, `[DOC-…-IMAGE-1: img_001.png]`
 * (docs/spec.md#markers).
 */
const MARKER_LIST = new RegExp(String.raw`\[(${CITATION}(?:\s*[,，;]\s*${CITATION})*(?::[^\]\n]*)?)\]`, 'g');

/**
 * Document text with every citation marker it contains (`[9]`, `[1, 2]`, `[DOC-…-PARA-2]`) put in
 * full-width brackets (`［9］`): still readable, but no longer a marker, so text quoted from a
 * document can never pass for a citation DropQA added (a document ending a claim with `[1]` would
 * otherwise make it look like it cites another source). Applied wherever document text enters an
 * answer or a prompt; only the markers DropQA writes itself afterwards are real.
 *
 * @example neutralizeMarkers('Proven safe [9][1].') // 'Proven safe ［9］［1］.'
 */
export function neutralizeMarkers(text: string): string {
  return text.replace(MARKER_LIST, (_whole, inside: string) => `［${inside}］`);
}
