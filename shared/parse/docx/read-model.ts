import mammoth from 'mammoth';
import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { legacyOfficeReason } from '../legacy-office.ts';
import { isEncryptedOoxml, sniffBinary } from '../sniff.ts';
import type { BodyExtra } from './body-rewrite.ts';
import type { DocxDocument } from './model.ts';
import { openWordPackage, type WordPackage } from './word-package.ts';

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

/** The document model, mammoth's own warnings, and the package it was read from. */
export interface DocxModel {
  document: DocxDocument;
  warnings: string[];
  /** What the body rewrite put at its bookmarks (`rewriteBody`). */
  extras: Map<string, BodyExtra>;
  word: WordPackage;
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
export async function readDocxModel(
  bytes: Uint8Array,
  filename: string,
  maxXmlBytes: number,
): Promise<DocxModel> {
  checkContainer(bytes, filename);
  let document: DocxDocument | undefined;
  try {
    const word = openWordPackage(bytes, maxXmlBytes);
    // mammoth opens any object with its archive interface (`{ file }`, lib/unzip.js), which its
    // typings leave out: the rewritten main part is handed over that way, without re-zipping.
    const input = { file: word.file } as unknown as { buffer: Buffer };
    const result = await mammoth.convertToHtml(input, {
      ...MAMMOTH_OPTIONS,
      // The model is all this parser needs: keep it and hand mammoth an empty body, so no HTML is
      // rendered and no image is read twice.
      transformDocument: (model: DocxDocument) => {
        document = model;
        return { ...model, children: [] };
      },
    });
    if (!document) throw new Error('mammoth returned no document');
    const warnings = result.messages.map((message) => `Word: ${message.message}`);
    return { document, warnings, extras: word.extras, word };
  } catch (error) {
    throw unreadable(filename, reasonOf(error).split('\n')[0] ?? 'unknown error', error);
  }
}
