import mammoth from 'mammoth';
import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { legacyOfficeReason } from '../legacy-office.ts';
import { isEncryptedOoxml, sniffBinary } from '../sniff.ts';
import type { DocxDocument } from './model.ts';

/**
 * Options for mammoth. External file access stays off so that a linked image (a `r:link` to a path or
 * URL) is never read from disk or fetched; mammoth then reports it instead of reading it. No style
 * map is read: only the document model is kept, never mammoth's HTML, and parsing mammoth's default
 * map alone cost about a third of the time of reading a small document.
 */
export const MAMMOTH_OPTIONS = {
  externalFileAccess: false,
  includeDefaultStyleMap: false,
  includeEmbeddedStyleMap: false,
} as const;

/** The document model and mammoth's own warnings. */
export interface DocxModel {
  document: DocxDocument;
  warnings: string[];
}

function unreadable(filename: string, reason: string, cause?: unknown): UnsupportedDocumentError {
  return new UnsupportedDocumentError(`${filename} is not a readable Word document: ${reason}`, { cause });
}

/**
 * Refuses what mammoth cannot open with a reason a person understands, before mammoth tries. The
 * archive limits (zip bombs) are checked before any parser runs (`checkOoxml`).
 */
function checkContainer(bytes: Uint8Array, filename: string): void {
  const sniffed = sniffBinary(bytes);
  if (sniffed?.kind === 'ole') {
    if (isEncryptedOoxml(bytes)) {
      throw new UnsupportedDocumentError(
        `${filename} is password-protected (an encrypted Word document); save it without a password`,
      );
    }
    throw unreadable(filename, legacyOfficeReason(bytes, filename, '.docx'));
  }
  if (sniffed?.kind !== 'zip') throw unreadable(filename, `it is ${sniffed?.label ?? 'not a ZIP archive'}`);
}

/**
 * Reads a .docx into mammoth's document model. Every failure becomes an `UnsupportedDocumentError`
 * ("report.docx is not a readable Word document: ...").
 */
export async function readDocxModel(bytes: Uint8Array, filename: string): Promise<DocxModel> {
  checkContainer(bytes, filename);
  let document: DocxDocument | undefined;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        ...MAMMOTH_OPTIONS,
        // The model is all this parser needs: keep it and hand mammoth an empty body, so no HTML is
        // rendered and no image is read twice.
        transformDocument: (model: DocxDocument) => {
          document = model;
          return { ...model, children: [] };
        },
      },
    );
    if (!document) throw new Error('mammoth returned no document');
    const warnings = result.messages.map((message) => `Word: ${message.message}`);
    return { document, warnings };
  } catch (error) {
    throw unreadable(filename, reasonOf(error).split('\n')[0] ?? 'unknown error', error);
  }
}
