import { UnsupportedDocumentError } from '#shared/errors.ts';
import { firstInvalidUtf8Offset } from '../decode.ts';

const META_CHARSET = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i;

/** The charset a page declares in its first 4 KB (`<meta charset>` or the http-equiv content type). */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  return META_CHARSET.exec(head)?.[1]?.toLowerCase();
}

/**
 * Decodes a web page as a browser would, without guessing from content: a byte-order mark wins (UTF-8,
 * UTF-16), then UTF-16 told by its first "<", then the charset the page declares (GBK, Big5, Shift_JIS, windows-1252, ...; a UTF-16
 * declaration in ASCII-compatible bytes means UTF-8, as browsers read it), then UTF-8 when the bytes
 * are valid UTF-8, else windows-1252 (the web's default for undeclared legacy pages).
 *
 * @example decodeHtml(bytes, 'old.htm') // the page's text, whatever its declared charset
 */
export function decodeHtml(bytes: Uint8Array, filename: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  // UTF-16 without a mark: the first character, "<", shows which byte order.
  if (bytes[0] === 0x3c && bytes[1] === 0x00) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0x00 && bytes[1] === 0x3c) return new TextDecoder('utf-16be').decode(bytes);
  const declared = declaredCharset(bytes);
  const charset = declared?.startsWith('utf-16') ? 'utf-8' : declared;
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      throw new UnsupportedDocumentError(
        `${filename} declares the charset "${declared}", which DropQA cannot decode`,
      );
    }
  }
  return new TextDecoder(firstInvalidUtf8Offset(bytes) < 0 ? 'utf-8' : 'windows-1252').decode(bytes);
}
