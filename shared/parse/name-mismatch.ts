import { describeType, extensionOf, readableTypeNamedBy } from './file-types.ts';
import type { FileType } from './types.ts';

export { describeType } from './file-types.ts';

/**
 * A warning when a file's extension promises another document type than its content has (a PDF
 * named .docx): the content wins, and the warning says so. Undefined when the name agrees or says
 * nothing (no extension, .txt for Markdown, an unknown extension).
 *
 * @example nameMismatch('report.docx', 'pdf') // 'report.docx is named .docx but is a PDF document; it was read as one'
 */
export function nameMismatch(filename: string, type: FileType): string | undefined {
  const named = typeNamedBy(filename);
  if (!named || named === type || (named === 'text' && (type === 'md' || type === 'txt'))) return undefined;
  return `${filename} is named ${extensionOf(filename)} but is ${describeType(type)}; it was read as one`;
}

/** The document type a file's extension promises: an Office type, PDF, 'text', or nothing known. */
export function typeNamedBy(filename: string): FileType | 'text' | undefined {
  const type = readableTypeNamedBy(filename);
  return type === 'md' || type === 'txt' ? 'text' : type;
}
