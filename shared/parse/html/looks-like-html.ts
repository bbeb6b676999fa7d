/** A byte-order mark, then whitespace, XML declarations and comments, then `<!doctype html` or `<html`. */
const HTML_START = /^\uFEFF?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!doctype\s+html|<html[\s>])/i;

/** The first kilobyte as text, whatever the page's charset: UTF-16 by its BOM, else byte per char. */
function headText(bytes: Uint8Array): string {
  const head = bytes.subarray(0, 1024);
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le').decode(head);
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be').decode(head);
  return new TextDecoder('latin1').decode(head);
}

/**
 * True when a file starts as a web page does, so an HTML page without an .html name is read as one.
 *
 * @example looksLikeHtml(new TextEncoder().encode('<!DOCTYPE html><p>hi')) // true
 */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  return HTML_START.test(headText(bytes));
}
