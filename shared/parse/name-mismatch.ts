import type { FileType } from './types.ts';

const TYPE_BY_EXTENSION: Record<string, FileType> = {
  '.docx': 'docx',
  '.docm': 'docx',
  '.dotx': 'docx',
  '.dotm': 'docx',
  '.pptx': 'pptx',
  '.pptm': 'pptx',
  '.ppsx': 'pptx',
  '.potx': 'pptx',
  '.xlsx': 'xlsx',
  '.xlsm': 'xlsx',
  '.xltx': 'xlsx',
  '.pdf': 'pdf',
};

const TEXT_EXTENSION = /^\.(md|markdown|mdown|mkd|txt|text)$/;

const LABEL: Record<FileType, string> = {
  md: 'a text document',
  txt: 'a text document',
  docx: 'a Word document',
  pptx: 'a PowerPoint presentation',
  xlsx: 'an Excel workbook',
  pdf: 'a PDF document',
};

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

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot).toLowerCase() : '';
}

/** The document type a file's extension promises: an Office type, PDF, 'text', or nothing known. */
export function typeNamedBy(filename: string): FileType | 'text' | undefined {
  const extension = extensionOf(filename);
  return TEXT_EXTENSION.test(extension) ? 'text' : TYPE_BY_EXTENSION[extension];
}

/** A document type for messages: "a Word document", "an Excel workbook". */
export function describeType(type: FileType): string {
  return LABEL[type];
}
