/** A reference resolved to a path inside the document's folder, or the reason it may not be read. */
export type ImagePath = { ok: true; path: string } | { ok: false; remote: boolean; reason: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const DRIVE = /^[a-z]:[\\/]/i;

function decodePercent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray "%" is part of the name
  }
}

/**
 * Turns an image reference from a document into a safe relative path: percent-escapes decoded, `./`
 * and `a/..` folded, backslashes read as separators. URLs (any scheme, `//host`), absolute paths
 * and paths that climb out of the document's folder are refused; remote ones are never fetched.
 *
 * @example resolveImagePath('./images/my%20chart.png') // { ok: true, path: 'images/my chart.png' }
 * @example resolveImagePath('../../etc/passwd') // { ok: false, remote: false, reason: '... leaves the document's folder' }
 */
export function resolveImagePath(reference: string): ImagePath {
  const trimmed = reference.trim();
  if (trimmed === '') return { ok: false, remote: false, reason: 'the image has no path' };
  if (DRIVE.test(trimmed)) return { ok: false, remote: false, reason: 'absolute paths are not read' };
  if (SCHEME.test(trimmed) || trimmed.startsWith('//') || trimmed.startsWith('\\\\')) {
    return { ok: false, remote: true, reason: 'remote images are never fetched' };
  }
  const withoutQuery = trimmed.replace(/[?#].*$/s, '');
  const decoded = decodePercent(withoutQuery).replaceAll('\\', '/');
  if (decoded.startsWith('/') || DRIVE.test(decoded) || SCHEME.test(decoded)) {
    return { ok: false, remote: false, reason: 'absolute paths are not read' };
  }
  if (decoded.includes('\u0000')) return { ok: false, remote: false, reason: 'the path is not valid' };
  const parts: string[] = [];
  for (const part of decoded.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0)
        return { ok: false, remote: false, reason: "the path leaves the document's folder" };
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  if (parts.length === 0) return { ok: false, remote: false, reason: 'the image has no path' };
  return { ok: true, path: parts.join('/') };
}
