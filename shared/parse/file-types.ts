import type { FileType } from './types.ts';

/** A document type DropQA reads and the extensions that promise it. */
interface ReadableType {
  type: FileType;
  extensions: readonly string[];
}

/** How messages name each type. */
const LABELS: Record<FileType, string> = {
  md: 'a text document',
  txt: 'a text document',
  pdf: 'a PDF document',
  docx: 'a Word document',
  doc: 'a Word 97-2003 document',
  pptx: 'a PowerPoint presentation',
  ppt: 'a PowerPoint 97-2003 presentation',
  xlsx: 'an Excel workbook',
  xls: 'an Excel 97-2003 or binary workbook',
  ods: 'an OpenDocument spreadsheet',
  csv: 'a CSV or TSV table',
  html: 'a web page',
  eml: 'an e-mail message',
  msg: 'an Outlook message',
  odt: 'an OpenDocument text document',
  odp: 'an OpenDocument presentation',
  rtf: 'an RTF document',
  image: 'an image (a scan or a photo)',
};

/**
 * Every type DropQA reads, in the order messages list them; the first extension is the usual one.
 * Only types with a parser in the registry belong here: refusals quote this list as what is read.
 */
export const READABLE_TYPES: readonly ReadableType[] = [
  { type: 'md', extensions: ['.md', '.markdown', '.mdown', '.mkd'] },
  { type: 'txt', extensions: ['.txt', '.text'] },
  { type: 'pdf', extensions: ['.pdf'] },
  {
    type: 'docx',

    extensions: ['.docx', '.docm', '.dotx', '.dotm'],
  },
  { type: 'doc', extensions: ['.doc', '.dot'] },
  {
    type: 'pptx',

    extensions: ['.pptx', '.pptm', '.ppsx', '.potx'],
  },
  { type: 'ppt', extensions: ['.ppt', '.pps', '.pot'] },
  { type: 'xlsx', extensions: ['.xlsx', '.xlsm', '.xltx'] },
  {
    type: 'xls',

    extensions: ['.xls', '.xlt', '.xlsb'],
  },
  { type: 'odt', extensions: ['.odt', '.ott'] },
  { type: 'odp', extensions: ['.odp', '.otp'] },
  { type: 'ods', extensions: ['.ods'] },
  { type: 'csv', extensions: ['.csv', '.tsv'] },
  { type: 'rtf', extensions: ['.rtf'] },
  { type: 'html', extensions: ['.html', '.htm', '.xhtml'] },
  { type: 'eml', extensions: ['.eml'] },
  { type: 'msg', extensions: ['.msg'] },
  { type: 'image', extensions: ['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.bmp', '.gif', '.webp'] },
];

const TYPE_BY_EXTENSION = new Map(
  READABLE_TYPES.flatMap((readable) => readable.extensions.map((ext) => [ext, readable] as const)),
);

/** A file name's extension, lower-cased with its dot ('' when it has none). */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot).toLowerCase() : '';
}

/** The readable type a file's extension promises, if any. */
export function readableTypeNamedBy(filename: string): FileType | undefined {
  return TYPE_BY_EXTENSION.get(extensionOf(filename))?.type;
}

/** True when a folder walk should ingest a file of this name as a document. */
export function isDocumentName(filename: string): boolean {
  return TYPE_BY_EXTENSION.has(extensionOf(filename));
}

/** A document type for messages: "a Word document", "an Excel workbook". */
export function describeType(type: FileType): string {
  return LABELS[type];
}

/**
 * The sentence every refusal of an unsupported type ends with, so a person knows what to send instead.
 *
 * @example readableTypesSentence() // 'DropQA reads .md, .txt, .pdf, .docx, .doc, .pptx, .ppt, .xlsx, .xls, ... files'
 */
export function readableTypesSentence(): string {
  const main = READABLE_TYPES.map((readable) => readable.extensions[0]);
  return `DropQA reads ${main.slice(0, -1).join(', ')} and ${main.at(-1)} files`;
}
