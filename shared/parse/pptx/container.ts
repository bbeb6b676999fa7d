import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { checkArchiveLimits } from '../archive-limits.ts';
import type { ParseLimits } from '../limits.ts';
import { isEncryptedOoxml, sniffBinary } from '../sniff.ts';
import { readZipDirectory, type ZipEntry } from '../zip.ts';

const KIND = 'PowerPoint presentation';
/** The stream a legacy .ppt keeps its slides in, as its OLE directory names it (UTF-16). */
const POWERPOINT_STREAM = Buffer.from('PowerPoint Document', 'utf16le');

/** `deck.pptx is not a readable PowerPoint presentation: <reason>`. */
export function unreadablePresentation(
  filename: string,
  reason: string,
  cause?: unknown,
): UnsupportedDocumentError {
  return new UnsupportedDocumentError(`${filename} is not a readable ${KIND}: ${reason}`, { cause });
}

/**
 * Checks that the bytes are a ZIP archive within the archive limits, refusing password-protected
 * and legacy .ppt files, corrupt archives and zip bombs with their own reasons, and returns the
 * archive's directory.
 */
export function openPresentationArchive(
  bytes: Uint8Array,
  filename: string,
  limits?: ParseLimits,
): ZipEntry[] {
  const sniffed = sniffBinary(bytes);
  if (sniffed?.kind === 'ole') {
    if (isEncryptedOoxml(bytes)) {
      throw new UnsupportedDocumentError(
        `${filename} is password-protected (an encrypted ${KIND}); save it without a password`,
      );
    }
    const ppt = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(POWERPOINT_STREAM);
    throw unreadablePresentation(
      filename,
      `it is a legacy ${ppt ? '.ppt' : 'Office'} (OLE) file; save it as .pptx`,
    );
  }
  if (sniffed?.kind !== 'zip')
    throw unreadablePresentation(filename, `it is ${sniffed?.label ?? 'not a ZIP archive'}`);
  try {
    checkArchiveLimits(bytes, filename, KIND, limits);
    return readZipDirectory(bytes);
  } catch (error) {
    if (error instanceof UnsupportedDocumentError && error.message.startsWith(filename)) throw error;
    throw unreadablePresentation(filename, reasonOf(error), error);
  }
}
