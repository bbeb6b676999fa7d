import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { checkArchiveLimits } from './archive-limits.ts';
import { entryBeyondDeclaredSize } from './declared-sizes.ts';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './limits.ts';
import { sniffBinary } from './sniff.ts';
import type { FileType } from './types.ts';
import { entryXmlProlog } from './xml-doctype.ts';
import { readZipDirectory, type ZipEntry } from './zip.ts';

const KIND: Partial<Record<FileType, string>> = {
  docx: 'Word document',
  pptx: 'PowerPoint presentation',
  xlsx: 'Excel workbook',
  odt: 'OpenDocument text document',
  odp: 'OpenDocument presentation',
};

const XML_PART = /\.(xml|rels)$/i;

/**
 * Checks an Office (OOXML) archive before its parser opens it, the one place the archive limits
 * are applied (the parsers themselves trust them, so parse Office files through `parseDocument`): entry count, uncompressed size and
 * compression ratio within the limits (zip bombs), and no XML part with a document type declaration
 * (entity expansion, "billion laughs": Office never writes a DTD, so none is expanded or even
 * parsed), and for Word documents no entry that inflates past its declared size. Other types pass
 * through. Throws `UnsupportedDocumentError` naming the file and the part.
 *
 * @example checkOoxml(bytes, 'deck.pptx', 'pptx', input.limits)
 */
export async function checkOoxml(
  bytes: Uint8Array,
  filename: string,
  type: FileType,
  limits: ParseLimits = DEFAULT_PARSE_LIMITS,
): Promise<void> {
  const kind = KIND[type];
  // Not a ZIP: the format's own parser tells an encrypted, legacy or damaged file apart.
  if (!kind || sniffBinary(bytes)?.kind !== 'zip') return;
  const refuse = (reason: string, cause?: unknown) =>
    new UnsupportedDocumentError(`${filename} is not a readable ${kind}: ${reason}`, { cause });
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(bytes);
    checkArchiveLimits(entries, filename, kind, limits);
  } catch (error) {
    if (error instanceof UnsupportedDocumentError && error.message.startsWith(filename)) throw error;
    throw refuse(reasonOf(error), error);
  }
  for (const entry of entries) {
    if (!XML_PART.test(entry.name) || entry.uncompressedSize === 0) continue;
    let prolog: ReturnType<typeof entryXmlProlog>;
    try {
      prolog = entryXmlProlog(bytes, entry);
    } catch (error) {
      throw refuse(`${entry.name} could not be inflated (${reasonOf(error)})`, error);
    }
    if (prolog === 'doctype') {
      throw refuse(
        `its part ${entry.name} starts with a document type declaration (<!DOCTYPE>), which Word, Excel and PowerPoint never write; DropQA refuses such files because the entities a declaration defines can expand a few bytes into gigabytes (the "billion laughs" attack). If you trust the file, open it in its Office program and save it again (that drops the declaration); otherwise do not use it`,
      );
    }
    if (prolog === 'unfinished') {
      throw refuse(`${entry.name} starts with an XML prolog longer than any Office file writes`);
    }
  }
  // The PowerPoint and Excel readers bound every inflate by the declared size themselves.
  if (type !== 'docx') return;
  let lying: Awaited<ReturnType<typeof entryBeyondDeclaredSize>>;
  try {
    lying = await entryBeyondDeclaredSize(bytes, entries);
  } catch (error) {
    throw refuse(`the archive could not be inflated (${reasonOf(error)})`, error);
  }
  if (lying) {
    throw refuse(
      `${lying.name} inflates to more than the ${lying.uncompressedSize} bytes its archive declares, which only a zip bomb does`,
    );
  }
}
