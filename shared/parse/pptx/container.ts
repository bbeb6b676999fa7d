import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { legacyOfficeReason } from '../legacy-office.ts';
import { isEncryptedOoxml, sniffBinary } from '../sniff.ts';
import { readZipDirectory, type ZipEntry } from '../zip.ts';

const KIND = 'PowerPoint presentation';

/** `deck.pptx is not a readable PowerPoint presentation: <reason>`. */
export function unreadablePresentation(
  filename: string,
  reason: string,
  cause?: unknown,
): UnsupportedDocumentError {
  return new UnsupportedDocumentError(`${filename} is not a readable ${KIND}: ${reason}`, { cause });
}

/**
 * Checks that the bytes are a ZIP archive, refusing password-protected and legacy .ppt files and
 * corrupt archives with their own reasons, and returns the archive's directory. The archive limits
 * (zip bombs) are checked before any parser runs (`checkOoxml`).
 */
export function openPresentationArchive(bytes: Uint8Array, filename: string): ZipEntry[] {
  const sniffed = sniffBinary(bytes);
  if (sniffed?.kind === 'ole') {
    if (isEncryptedOoxml(bytes)) {
      throw new UnsupportedDocumentError(
        `${filename} is password-protected (an encrypted ${KIND}); save it without a password`,
      );
    }
    throw unreadablePresentation(filename, legacyOfficeReason(bytes, filename, '.pptx'));
  }
  if (sniffed?.kind !== 'zip')
    throw unreadablePresentation(filename, `it is ${sniffed?.label ?? 'not a ZIP archive'}`);
  try {
    return readZipDirectory(bytes);
  } catch (error) {
    if (error instanceof UnsupportedDocumentError && error.message.startsWith(filename)) throw error;
    throw unreadablePresentation(filename, reasonOf(error), error);
  }
}
