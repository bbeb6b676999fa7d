import { UnsupportedDocumentError } from '#shared/errors.ts';
import { damagedContainer, damagedFile } from './damaged.ts';
import { decodeTableText, decodeText, textEncodingOf } from './decode.ts';
import { extensionOf, readableTypeNamedBy, readableTypesSentence } from './file-types.ts';
import { looksLikeHtml } from './html/looks-like-html.ts';
import { isDocumentImage } from './image-document.ts';
import { looksLikeMarkdown } from './looks-like-markdown.ts';
import { describeType, typeNamedBy } from './name-mismatch.ts';
import { openOle } from './ole.ts';
import { isRtf } from './rtf/parse-rtf.ts';
import { isEncryptedOoxml, sniffBinary } from './sniff.ts';
import type { FileType } from './types.ts';
import { readZipDirectory, readZipEntry } from './zip.ts';

export { decodeText } from './decode.ts';

const MARKDOWN_NAME = /\.(md|markdown|mdown|mkd)$/i;
/** Names that promise text; binary content under them is reported as a mismatch. */
const TEXT_NAME = /^(|\.(md|markdown|mdown|mkd|txt|text|csv|tsv|log|json|xml|html?|ya?ml|eml|rtf))$/;
const OOXML_BY_PART: readonly [string, FileType][] = [
  ['word/document.xml', 'docx'],
  ['ppt/presentation.xml', 'pptx'],
  ['xl/workbook.xml', 'xlsx'],
  ['xl/workbook.bin', 'xls'],
];
/** Main-part content types, macro-enabled and template variants included. */
const OOXML_BY_CONTENT_TYPE: readonly [RegExp, FileType][] = [
  [/wordprocessingml\.(document|template)\.main\+xml|ms-word\.(document|template)\.macroEnabled/i, 'docx'],
  [/presentationml\.(presentation|slideshow|template)\.main\+xml|ms-powerpoint\./i, 'pptx'],
  [/spreadsheetml\.(sheet|template)\.main\+xml|ms-excel\./i, 'xlsx'],
];
const MAX_CONTENT_TYPES_BYTES = 1 << 20;
/** Each Office family's folder of parts, the main part every file of it has, and its name. */
const OOXML_FAMILIES: readonly [folder: string, main: string, kind: string][] = [
  ['word/', 'word/document.xml', 'Word document'],
  ['ppt/', 'ppt/presentation.xml', 'PowerPoint presentation'],
  ['xl/', 'xl/workbook.xml', 'Excel workbook'],
];

/**
 * A ZIP holding an Office family's parts without what every file of that family has (the content
 * types, the main part) is a damaged Office file, not some other archive: says which parts are gone.
 */
function missingOfficeParts(
  filename: string,
  names: readonly string[],
): UnsupportedDocumentError | undefined {
  const family = OOXML_FAMILIES.find(([folder]) => names.some((name) => name.startsWith(folder)));
  if (!family) return undefined;
  const [folder, main, kind] = family;
  const missing = ['[Content_Types].xml', main].filter((part) => !names.includes(part));
  if (missing.length === 0) return undefined;
  return damagedFile(
    filename,
    `it holds parts of ${kind.startsWith('E') ? 'an' : 'a'} ${kind} (${folder}...) but not ${missing.join(' or ')}, which every ${kind} has`,
  );
}

function binaryError(filename: string, looksLike: string | undefined): UnsupportedDocumentError {
  const ext = extensionOf(filename);
  if (looksLike && !TEXT_NAME.test(ext)) {
    return new UnsupportedDocumentError(
      `${filename} is ${looksLike}, which is not a supported document type; ${readableTypesSentence()}`,
    );
  }
  const what = looksLike ? `binary data (looks like ${looksLike})` : 'binary data';
  const promised = typeNamedBy(filename);
  if (!promised) {
    // Neither its name nor its bytes make it a type DropQA reads: say so, and what it reads.
    const kind = ext ? ` (${ext})` : '';
    return new UnsupportedDocumentError(
      `${filename} is ${what} of a type DropQA does not read${kind}; ${readableTypesSentence()}`,
    );
  }
  const named = ext ? `is named ${ext} but contains` : 'contains';
  const not = promised && promised !== 'text' ? `, not ${describeType(promised)}` : '';
  return new UnsupportedDocumentError(`${filename} ${named} ${what}${not}`);
}

function ooxmlType(bytes: Uint8Array, filename: string): FileType {
  let names: string[];
  let contentTypes: ReturnType<typeof readZipDirectory>[number] | undefined;
  try {
    const entries = readZipDirectory(bytes);
    names = entries.map((entry) => entry.name);
    contentTypes = entries.find((entry) => entry.name === '[Content_Types].xml');
    if (contentTypes) {
      const byPart = OOXML_BY_PART.find(([part]) => names.includes(part));
      if (byPart) return byPart[1];
      const xml = new TextDecoder().decode(readZipEntry(bytes, contentTypes, MAX_CONTENT_TYPES_BYTES));
      const byType = OOXML_BY_CONTENT_TYPE.find(([pattern]) => pattern.test(xml));
      if (byType) return byType[1];
    }
  } catch (error) {
    throw damagedContainer(filename, 'ZIP archive', 'Office file', error);
  }
  if (names.includes('mimetype') && names.some((name) => name === 'content.xml')) {
    return openDocumentType(bytes, filename);
  }
  const damaged = missingOfficeParts(filename, names);
  if (damaged) throw damaged;
  if (names.includes('mimetype') && storedMimetype(bytes) === 'application/epub+zip') {
    throw new UnsupportedDocumentError(
      `${filename} is an EPUB e-book; EPUB e-books are not supported; ${readableTypesSentence()}`,
    );
  }
  throw new UnsupportedDocumentError(
    `${filename} is a ZIP archive${contentTypes ? ' with an unknown Office part' : ''}, not a Word, PowerPoint or Excel document; ${readableTypesSentence()}`,
  );
}

/** The `mimetype` entry OpenDocument and EPUB packages store first ('' without one). */
function storedMimetype(bytes: Uint8Array): string {
  const entry = readZipDirectory(bytes).find((candidate) => candidate.name === 'mimetype');
  return entry ? new TextDecoder().decode(readZipEntry(bytes, entry, 256)).trim() : '';
}

/** OpenDocument files name their kind in the stored `mimetype` entry. */
function openDocumentType(bytes: Uint8Array, filename: string): FileType {
  const mime = storedMimetype(bytes);
  if (mime === 'application/vnd.oasis.opendocument.spreadsheet') return 'ods';
  if (/^application\/vnd\.oasis\.opendocument\.text(-template)?$/.test(mime)) return 'odt';
  if (/^application\/vnd\.oasis\.opendocument\.presentation(-template)?$/.test(mime)) return 'odp';
  const kind = mime.replace('application/vnd.oasis.opendocument.', '') || 'unknown';
  throw new UnsupportedDocumentError(
    `${filename} is an OpenDocument ${kind} file, which DropQA does not read yet; ${readableTypesSentence()}`,
  );
}

/** Legacy Office files are OLE compound files; their streams tell Word, Excel and PowerPoint apart. */
function oleType(bytes: Uint8Array, filename: string): FileType {
  if (isEncryptedOoxml(bytes)) {
    throw new UnsupportedDocumentError(
      `${filename} is password-protected (an encrypted Office document); save it without a password`,
    );
  }
  const ole = openOle(bytes, filename);
  switch (ole.kind) {
    case 'doc':
    case 'xls':
    case 'ppt':
      return ole.kind;
    case 'msg':
      return 'msg';
    default:
      throw new UnsupportedDocumentError(
        `${filename} is an OLE compound file that is not a Word, Excel or PowerPoint document; ${readableTypesSentence()}`,
      );
  }
}

/** Text the name calls a table or an e-mail, or a web page by its name or its first tag. */
function textType(bytes: Uint8Array, filename: string): FileType | undefined {
  const named = readableTypeNamedBy(filename);
  if (named === 'csv' || named === 'eml') return named;
  if (named === 'html' || (named === undefined && looksLikeHtml(bytes))) return 'html';
  return undefined;
}

/** Control characters other than tab, newlines, form feed and escape do not occur in real text. */
function isControl(code: number): boolean {
  return code < 0x20 && (code < 0x09 || (code > 0x0d && code !== 0x1b));
}

function isBinaryText(text: string): boolean {
  const sample = text.length > 8192 ? text.slice(0, 8192) : text;
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code === 0) return true;
    if (isControl(code)) controls++;
  }
  return controls > sample.length / 100;
}

/** How much of a large CSV or TSV detection decodes: the CSV reader decodes (and checks) it all. */
const TABLE_HEAD_BYTES = 256 * 1024;

/**
 * The text of a table's first lines (cut at a line feed, which is never part of a UTF-8, GBK or Big5
 * character), or of all of it when it is small, has no line feed there, is UTF-16, or its head is
 * blank.
 */
function tableTextHead(bytes: Uint8Array, filename: string): string {
  const cut = bytes.lastIndexOf(0x0a, TABLE_HEAD_BYTES);
  if (bytes.length <= TABLE_HEAD_BYTES || cut <= 0 || textEncodingOf(bytes) !== 'utf-8') {
    return decodeTableText(bytes, filename).text;
  }
  const head = decodeTableText(bytes.subarray(0, cut + 1), filename).text;
  return head.trim() === '' ? decodeTableText(bytes, filename).text : head;
}

/**
 * Tells a document's real type from its bytes; the filename only chooses between Markdown and plain
 * text. A PNG, JPEG, TIFF, BMP, GIF or WebP picture is an `image` document (a scan or a photo, read
 * by OCR). Throws `UnsupportedDocumentError` with a readable reason for empty files, other images, archives,
 * other binaries (whatever their name says) and text that is not UTF-8 or UTF-16 with a BOM.
 *
 * @example detectFileType(bytes, 'notes.md') // 'md'
 * @example detectFileType(pngBytes, 'notes.md') // throws "notes.md is named .md but contains binary data (looks like a PNG image)"
 */
export function detectFileType(bytes: Uint8Array, filename: string): FileType {
  if (bytes.length === 0) throw new UnsupportedDocumentError(`${filename}: the file is empty`);
  const sniffed = sniffBinary(bytes);
  if (sniffed?.kind === 'pdf') return 'pdf';
  if (sniffed?.kind === 'zip') return ooxmlType(bytes, filename);
  if (sniffed?.kind === 'ole') return oleType(bytes, filename);
  // A picture named as text (notes.md holding a PNG) is a mistake to report, not a scan to read.
  const ext = extensionOf(filename);
  if (isDocumentImage(bytes) && (ext === '' || !TEXT_NAME.test(ext))) return 'image';
  if (sniffed) throw binaryError(filename, sniffed.label);
  if (isRtf(bytes, filename)) return 'rtf';
  const textKind = textType(bytes, filename);
  // Both declare their own charsets (GBK mail, legacy pages): not UTF-8 text to check here.
  if (textKind === 'html' || textKind === 'eml') return textKind;
  // UTF-8 text never holds NUL bytes; UTF-16 has many, so only a BOM makes them acceptable.
  if (textEncodingOf(bytes) === 'utf-8' && bytes.subarray(0, 8192).includes(0)) {
    throw binaryError(filename, undefined);
  }
  const text = textKind === 'csv' ? tableTextHead(bytes, filename) : decodeText(bytes, filename);
  if (isBinaryText(text)) throw binaryError(filename, undefined);
  if (text.trim() === '')
    throw new UnsupportedDocumentError(`${filename}: the file is empty (only whitespace)`);
  if (textKind) return textKind;
  return MARKDOWN_NAME.test(filename) || looksLikeMarkdown(text) ? 'md' : 'txt';
}
