/** Extensions for the attachment types that come without a file name. */
const EXTENSION_BY_MIME: Record<string, string> = {
  'message/rfc822': '.eml',
  'application/vnd.ms-outlook': '.msg',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'text/html': '.html',
  'text/csv': '.csv',
  'application/msword': '.doc',
  'application/vnd.ms-excel': '.xls',
  'application/vnd.ms-powerpoint': '.ppt',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': '.pptx',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
};

/**
 * An attachment's file name: the one the message gives (its last path segment), else
 * `attachment-<n>` with the extension of its type (`message-<n>.eml` for a forwarded message).
 *
 * @example partFilename(null, 'message/rfc822', 2) // 'message-3.eml'
 */
export function partFilename(given: string | null | undefined, mime: string, index: number): string {
  const name = (given ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  if (name && name !== '.' && name !== '..') return name;
  const ext = EXTENSION_BY_MIME[mime.toLowerCase()] ?? '';
  return `${mime.toLowerCase() === 'message/rfc822' ? 'message' : 'attachment'}-${index + 1}${ext}`;
}
