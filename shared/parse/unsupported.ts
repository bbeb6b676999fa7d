import { extensionOf, readableTypesSentence } from './file-types.ts';
import { sniffBinary } from './sniff.ts';

/**
 * Why a file found in a folder is not read, from its name and first bytes: the type its content
 * shows (a ZIP archive, a PNG image) or its extension, then the types DropQA reads.
 *
 * @example unsupportedReason('site.zip', head) // 'site.zip is a ZIP archive, which DropQA does not read; DropQA reads Markdown (.md, ...), ...'
 */
export function unsupportedReason(filename: string, head: Uint8Array): string {
  const sniffed = head.length > 0 ? sniffBinary(head) : undefined;
  const ext = extensionOf(filename);
  const what = sniffed?.label ?? (ext ? `a ${ext} file` : 'a file without an extension');
  return `${filename} is ${what}, which DropQA does not read; ${readableTypesSentence()}`;
}
